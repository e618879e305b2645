import { type Earnings, type FanPlanResponse, type FanPlanSettings, urlOf } from '@fanpilot/contracts';
import { Button, toast } from '@fanpilot/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type Ref, useEffect, useState } from 'react';
import { api, serverMessage } from '../../../lib/api.ts';
import { dollars } from '../../../lib/billing.ts';
import { TEXT } from '../../../texts.ts';
import { Card } from '../Card.tsx';
import { SectionHeading } from '../SectionHeading.tsx';
import { EARNINGS_TEXT } from './texts.ts';

const t = EARNINGS_TEXT;

/** Fans & Earnings (record 0043): payouts through Stripe Connect, the plan, earnings, fan emails. */
export function EarningsSection({
  username,
  headingRef,
}: {
  username: string;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const plan = useQuery({
    queryKey: ['creator', username, 'fan-plan'],
    queryFn: (): Promise<FanPlanResponse> => api.call('fanPlan', { params: { username } }),
  });
  const earnings = useQuery({
    queryKey: ['creator', username, 'earnings'],
    queryFn: (): Promise<Earnings> => api.call('earnings', { params: { username } }),
    refetchInterval: 60_000,
  });
  // Back from Stripe's onboarding (?payouts=return): the address forgets it, the state is read anew.
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    if (!params.has('payouts')) return;
    params.delete('payouts');
    const rest = params.toString();
    window.history.replaceState(null, '', `${window.location.pathname}${rest ? `?${rest}` : ''}`);
  }, []);
  return (
    <>
      <SectionHeading headingRef={headingRef} title={t.heading} lead={t.lead} />
      {!plan.data ? (
        <p role="status" className="text-sm text-slate-600">
          {TEXT.common.loading}
        </p>
      ) : (
        <div className="grid gap-6 xl:grid-cols-2">
          <PayoutsCard username={username} plan={plan.data} />
          <PlanCard username={username} plan={plan.data} />
          {earnings.data && <EarningsCard earnings={earnings.data} username={username} />}
        </div>
      )}
    </>
  );
}

function PayoutsCard({ username, plan }: { username: string; plan: FanPlanResponse }) {
  const connect = useMutation({
    mutationFn: () => api.call('connectPayouts', { params: { username } }),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (err) =>
      toast({ title: serverMessage(err) ?? TEXT.common.somethingWentWrong, variant: 'error' }),
  });
  const { payouts } = plan;
  return (
    <Card title={t.payoutsHeading}>
      {plan.paymentsMode === 'off' ? (
        <p className="text-sm text-slate-700">{t.paymentsOff}</p>
      ) : (
        <>
          <p
            role="status"
            data-testid="payouts-state"
            className={payouts.lost ? 'text-sm text-red-700' : 'text-sm text-slate-700'}
          >
            {payouts.lost
              ? t.lost
              : payouts.chargesEnabled
                ? t.enabled
                : payouts.connected
                  ? t.pending
                  : t.notConnected}
          </p>
          {!payouts.chargesEnabled && (
            <Button className="mt-3" onClick={() => connect.mutate()} disabled={connect.isPending}>
              {connect.isPending
                ? t.connecting
                : payouts.lost
                  ? t.reconnect
                  : payouts.connected
                    ? t.continueOnboarding
                    : t.connect}
            </Button>
          )}
          <p className="mt-3 text-xs text-slate-500">{t.fee(plan.feePercent)}</p>
          {plan.paymentsMode === 'test' && <p className="mt-2 text-xs text-amber-800">{t.testMode}</p>}
        </>
      )}
    </Card>
  );
}

const toCents = (v: string) => Math.round(Number(v) * 100);
const fromCents = (c: number | null | undefined) => (c === null || c === undefined ? '' : String(c / 100));

function PlanCard({ username, plan }: { username: string; plan: FanPlanResponse }) {
  const queryClient = useQueryClient();
  const current = plan.plan;
  const [enabled, setEnabled] = useState(current?.enabled ?? true);
  const [monthly, setMonthly] = useState(fromCents(current?.monthlyCents ?? 4_900));
  const [yearly, setYearly] = useState(fromCents(current?.yearlyCents ?? null));
  const [trial, setTrial] = useState(String(current?.trialDays ?? 0));
  const [free, setFree] = useState(String(current?.freeAnswers ?? 5));
  const [perks, setPerks] = useState(current?.perks ?? '');
  const [lead, setLead] = useState(current?.leadCapture ?? false);
  const save = useMutation({
    mutationFn: (body: FanPlanSettings) => api.call('updateFanPlan', { params: { username }, body }),
    onSuccess: (data) => {
      queryClient.setQueryData(['creator', username, 'fan-plan'], data);
      toast({ title: t.saved, variant: 'success' });
    },
    onError: (err) =>
      toast({ title: serverMessage(err) ?? TEXT.common.somethingWentWrong, variant: 'error' }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({
      enabled,
      monthlyCents: toCents(monthly),
      yearlyCents: yearly.trim() === '' ? null : toCents(yearly),
      trialDays: Number(trial) || 0,
      freeAnswers: Number(free) || 0,
      perks,
      leadCapture: lead,
    });
  };
  const field = 'mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm';
  return (
    <Card title={t.planHeading}>
      <form onSubmit={submit} className="space-y-3" aria-label={t.planHeading}>
        <label className="flex min-h-11 items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-5"
            checked={enabled}
            onChange={(e) => setEnabled(e.target.checked)}
          />
          {t.enabledLabel}
        </label>
        <div>
          <label className="text-sm font-medium text-slate-800" htmlFor="plan-monthly">
            {t.monthly}
          </label>
          <div className="mt-1 flex flex-wrap gap-2">
            {plan.presetsCents.map((c) => (
              <button
                key={c}
                type="button"
                onClick={() => setMonthly(fromCents(c))}
                aria-pressed={toCents(monthly) === c}
                className={`min-h-11 rounded-full border px-3 py-1 text-sm desktop:min-h-0 ${toCents(monthly) === c ? 'border-brand-700 bg-brand-50 text-brand-800' : 'border-slate-300 text-slate-700'}`}
              >
                {dollars(c)}
              </button>
            ))}
          </div>
          <input
            id="plan-monthly"
            inputMode="decimal"
            className={field}
            value={monthly}
            onChange={(e) => setMonthly(e.target.value)}
          />
        </div>
        <div>
          <label className="text-sm font-medium text-slate-800" htmlFor="plan-yearly">
            {t.yearly}
          </label>
          <input
            id="plan-yearly"
            inputMode="decimal"
            className={field}
            value={yearly}
            onChange={(e) => setYearly(e.target.value)}
          />
        </div>
        <div className="grid grid-cols-2 gap-3">
          <div>
            <label className="text-sm font-medium text-slate-800" htmlFor="plan-trial">
              {t.trial}
            </label>
            <input
              id="plan-trial"
              inputMode="numeric"
              className={field}
              value={trial}
              onChange={(e) => setTrial(e.target.value)}
            />
          </div>
          <div>
            <label className="text-sm font-medium text-slate-800" htmlFor="plan-free">
              {t.free}
            </label>
            <input
              id="plan-free"
              inputMode="numeric"
              className={field}
              value={free}
              onChange={(e) => setFree(e.target.value)}
            />
          </div>
        </div>
        <div>
          <label className="text-sm font-medium text-slate-800" htmlFor="plan-perks">
            {t.perks}
          </label>
          <textarea
            id="plan-perks"
            className={field}
            rows={2}
            maxLength={280}
            value={perks}
            onChange={(e) => setPerks(e.target.value)}
          />
        </div>
        <label className="flex min-h-11 items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-5"
            checked={lead}
            onChange={(e) => setLead(e.target.checked)}
          />
          {t.leadCapture}
        </label>
        <Button type="submit" disabled={save.isPending}>
          {t.save}
        </Button>
      </form>
    </Card>
  );
}

function EarningsCard({ earnings, username }: { earnings: Earnings; username: string }) {
  const row = (label: string, value: string, testId?: string) => (
    <div className="flex justify-between gap-3 border-b border-slate-100 py-1.5 text-sm">
      <dt className="text-slate-600">{label}</dt>
      <dd className="font-medium text-slate-900" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
  return (
    <Card title={t.earningsHeading} className="xl:col-span-2">
      <dl>
        {row(t.subscribers, String(earnings.subscribers), 'earnings-subscribers')}
        {row(t.mrr, dollars(earnings.mrrCents), 'earnings-mrr')}
        {row(t.feeLine(earnings.feePercent), dollars(earnings.feeCents))}
        {row(t.newThisMonth, String(earnings.newThisMonth))}
        {row(t.cancelledThisMonth, String(earnings.cancelledThisMonth))}
        {row(
          t.conversion,
          earnings.conversionPercent === null
            ? t.noConversion
            : `${earnings.conversionPercent}% · ${t.conversionDetail(earnings.convertedFans, earnings.paywallFans)}`,
          'earnings-conversion',
        )}
        {row(t.paidThisMonth, dollars(earnings.paidThisMonthCents))}
      </dl>
      <h3 className="mt-4 text-sm font-semibold text-slate-800">{t.payoutsList}</h3>
      {earnings.payouts.length === 0 ? (
        <p className="text-sm text-slate-600">{earnings.payoutsNote}</p>
      ) : (
        <ul className="text-sm" data-testid="payouts-list">
          {earnings.payouts.map((p) => (
            <li key={p.id} className="flex justify-between py-1">
              <span>{new Date(p.arrivalDate).toLocaleDateString()}</span>
              <span>
                {dollars(p.amountCents)} · {p.status}
              </span>
            </li>
          ))}
        </ul>
      )}
      <a
        className="mt-4 inline-flex min-h-11 items-center text-sm text-brand-700 underline"
        href={urlOf('fanLeads', { username })}
        download
      >
        {t.leads}
      </a>
    </Card>
  );
}
