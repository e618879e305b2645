import type { Billing } from '@fanpilot/contracts';
import { Button, toast } from '@fanpilot/ui';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { Ref } from 'react';
import { api, serverMessage } from '../../../lib/api.ts';
import { dollars } from '../../../lib/billing.ts';
import { absoluteTime } from '../../../lib/format.ts';
import { billingQuery } from '../../../lib/queries.ts';
import { TEXT } from '../../../texts.ts';
import { Card, EmptyState } from '../Card.tsx';
import { Badge } from '../common/Badge.tsx';
import { SectionHeading } from '../SectionHeading.tsx';

const t = TEXT.billing;

/** Billing: balance (from the ledger), buying packs, AI answers per day and the purchases. */
export function BillingSection({
  username,
  headingRef,
}: {
  username: string;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const billing = useQuery(billingQuery(username));
  const data = billing.data;
  return (
    <>
      <SectionHeading headingRef={headingRef} title={t.heading} lead={t.lead} />
      {!data ? (
        <p role="status" className="text-sm text-slate-600">
          {TEXT.common.loading}
        </p>
      ) : (
        <div className="grid gap-6 xl:grid-cols-2">
          <BalanceCard billing={data} />
          <BuyCard billing={data} username={username} />
          <UsageChart billing={data} />
          <Purchases billing={data} />
        </div>
      )}
    </>
  );
}

function BalanceCard({ billing }: { billing: Billing }) {
  // Whatever else the ledger holds (support's corrections), so the lines add up to the balance.
  const adjusted = billing.balance - billing.freeGrant - billing.purchased + billing.spent;
  return (
    <Card title={t.balanceHeading}>
      <p className="text-3xl font-bold text-slate-900">{t.balance(billing.balance)}</p>
      {billing.state !== 'ok' && (
        <div
          role="status"
          className={`mt-3 rounded-lg border px-3 py-2 text-sm ${
            billing.state === 'out'
              ? 'border-red-300 bg-red-50 text-red-900'
              : 'border-amber-300 bg-amber-50 text-amber-900'
          }`}
        >
          <p className="font-semibold">
            {billing.state === 'out' ? t.outTitle : t.lowTitle(billing.balance)}
          </p>
          <p className="mt-0.5">{billing.state === 'out' ? t.outDetail : t.lowDetail}</p>
        </div>
      )}
      <ul className="mt-3 space-y-1 text-sm text-slate-700">
        <li>{t.freeGrant(billing.freeGrant)}</li>
        <li>{t.purchased(billing.purchased)}</li>
        <li>{t.spent(billing.spent)}</li>
        {adjusted !== 0 && <li>{t.adjusted(adjusted)}</li>}
      </ul>
      <p
        className={`mt-3 text-sm ${billing.aiBudgetReached ? 'font-semibold text-amber-900' : 'text-slate-700'}`}
      >
        {t.todayOfBudget(billing.aiAnswersToday, billing.dailyAiBudget)}
        {billing.aiBudgetReached && ` · ${TEXT.dashboard.budgetReached}`}
      </p>
      <p className="mt-1 text-xs text-slate-600">{t.budgetNote(billing.dailyAiBudget)}</p>
    </Card>
  );
}

/** Buying packs; when the server has buying switched off, a sentence says so and the buttons are off. */
export function BuyCard({ billing, username }: { billing: Billing; username: string }) {
  const buy = useMutation({
    mutationFn: (pack: string) => api.call('checkout', { params: { username }, body: { pack } }),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) => toast({ title: t.buyFailed, description: serverMessage(error), variant: 'error' }),
  });
  return (
    <Card title={t.buyHeading}>
      {!billing.purchasesEnabled ? (
        <p
          id="billing-purchases-off"
          role="status"
          className="mb-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          {t.purchasesOff}
        </p>
      ) : (
        billing.testMode && (
          <p className="mb-3 rounded-lg bg-slate-100 px-3 py-2 text-xs text-slate-700">{t.testMode}</p>
        )
      )}
      <div className="flex flex-col gap-2">
        {billing.packs.map((pack) => (
          <Button
            key={pack.id}
            variant="secondary"
            disabled={buy.isPending || !billing.purchasesEnabled}
            aria-describedby={billing.purchasesEnabled ? undefined : 'billing-purchases-off'}
            onClick={() => buy.mutate(pack.id)}
          >
            {buy.isPending && buy.variables === pack.id
              ? t.buying
              : t.buy(pack.credits, dollars(pack.amountCents))}
          </Button>
        ))}
      </div>
    </Card>
  );
}

function UsageChart({ billing }: { billing: Billing }) {
  const max = Math.max(1, ...billing.daily.map((d) => d.aiAnswers));
  return (
    <Card title={t.chartHeading} className="xl:col-span-2">
      <ol aria-label={t.chartHeading} className="flex h-32 items-end gap-0.5">
        {billing.daily.map((d) => (
          <li
            key={d.date}
            aria-label={t.chartLabel(d.date, d.aiAnswers)}
            title={t.chartLabel(d.date, d.aiAnswers)}
            className="min-w-0 flex-1 rounded-t bg-brand-600"
            style={{ height: `${Math.max(2, (d.aiAnswers / max) * 100)}%`, opacity: d.aiAnswers ? 1 : 0.2 }}
          />
        ))}
      </ol>
      <div className="mt-1 flex justify-between text-xs text-slate-600">
        <span>{billing.daily[0]?.date}</span>
        <span>{billing.daily.at(-1)?.date}</span>
      </div>
    </Card>
  );
}

function Purchases({ billing }: { billing: Billing }) {
  return (
    <Card title={t.purchasesHeading} className="xl:col-span-2">
      {billing.purchases.length === 0 ? (
        <EmptyState>{t.noPurchases}</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-100">
          {billing.purchases.map((p) => (
            <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <span className="text-slate-900">{t.purchaseLine(p.credits, dollars(p.amountCents))}</span>
              <span className="flex items-center gap-2 text-slate-600">
                <time dateTime={p.createdAt}>{absoluteTime(p.createdAt)}</time>
                <Badge tone={p.status === 'paid' ? 'success' : 'neutral'}>
                  {p.status === 'paid' ? t.paid : t.pending}
                </Badge>
                {p.receiptUrl && (
                  <a
                    href={p.receiptUrl}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="inline-flex min-h-11 items-center text-brand-700 underline"
                  >
                    {t.receipt}
                  </a>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
