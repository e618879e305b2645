import { FAN_FREE_ANSWERS_SHOWN_BELOW } from '@fanpilot/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../lib/api.ts';
import {
  askRestoreLink,
  confirmSubscription,
  fetchFanPlan,
  giveEmail,
  openPortal,
  readReturnedSession,
  startSubscription,
} from './api.ts';
import { planTexts, shortDate } from './texts.ts';

/**
 * The creator's plan in the chat (record 0043): the free answers left when few remain; past the
 * allowance the plan card (price, what subscribers get, the creator's photo) with Subscribe; back
 * from Checkout the chat unlocks at once; a subscriber's state and Manage subscription.
 */
export default function PlanPanel({
  creator,
  fanId,
  messageCount,
}: {
  creator: string;
  fanId: string;
  /** Changes when the conversation does: the allowance is read again. */
  messageCount: number;
}) {
  const queryClient = useQueryClient();
  const key = ['fan-plan', creator, fanId];
  const plan = useQuery({
    queryKey: key,
    queryFn: () => fetchFanPlan(fanId, creator),
    refetchInterval: 60_000,
  });
  const { refetch } = plan;
  useEffect(() => {
    void refetch();
  }, [messageCount, refetch]);
  const [error, setError] = useState<string | null>(null);

  // Back from Checkout (?subscribed=cs_…): the api reads the session from Stripe, the chat unlocks now.
  const returned = useRef(readReturnedSession(window.location.search));
  const confirm = useMutation({
    mutationFn: (sessionId: string) => confirmSubscription(creator, fanId, sessionId),
    onSuccess: (state) => {
      queryClient.setQueryData(key, state);
      void queryClient.invalidateQueries({ queryKey: ['chatlog', creator, fanId] });
    },
    onError: (err) => setError(errorMessage(err, planTexts.somethingFailed)),
  });
  const { mutate: confirmMutate } = confirm;
  useEffect(() => {
    const sessionId = returned.current;
    if (!sessionId) return;
    returned.current = null;
    window.history.replaceState(window.history.state, '', window.location.pathname);
    confirmMutate(sessionId);
  }, [confirmMutate]);

  const checkout = useMutation({
    mutationFn: (interval: 'month' | 'year') => startSubscription(creator, fanId, interval),
    onMutate: () => setError(null),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (err) => setError(errorMessage(err, planTexts.somethingFailed)),
  });
  const portal = useMutation({
    mutationFn: () => openPortal(creator, fanId),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (err) => setError(errorMessage(err, planTexts.somethingFailed)),
  });

  const state = plan.data;
  if (confirm.isPending) return <Strip tone="brand">{planTexts.unlocking}</Strip>;
  if (!state) return null;
  const sub = state.subscription;
  const manage = (
    <button
      type="button"
      onClick={() => portal.mutate()}
      disabled={portal.isPending}
      className="ml-2 rounded-full border border-brand-700 px-3 py-1 text-xs font-medium text-brand-700 hover:bg-brand-50"
    >
      {planTexts.manage}
    </button>
  );
  if (sub && sub.status !== 'ended') {
    const text =
      sub.status === 'past_due' && sub.graceUntil
        ? planTexts.pastDue(shortDate(sub.graceUntil))
        : sub.status === 'cancelling' && sub.accessUntil
          ? planTexts.endsOn(shortDate(sub.accessUntil))
          : confirm.isSuccess
            ? planTexts.unlocked
            : planTexts.subscribed;
    return (
      <Strip tone={sub.status === 'past_due' ? 'warn' : 'brand'} testId="subscription-state">
        {text}
        {manage}
        {error && <span className="block text-red-700">{error}</span>}
      </Strip>
    );
  }
  if (state.paywall && state.offer) {
    return (
      <PlanCard
        creator={creator}
        fanId={fanId}
        offer={state.offer}
        emailGiven={state.emailGiven}
        onSubscribe={(interval) => checkout.mutate(interval)}
        busy={checkout.isPending}
        error={error}
        onEmail={() => void refetch()}
      />
    );
  }
  // The plan card may go while its answer is on screen (the creator's payouts need reconnecting, so
  // the plan is no longer live): the fan still reads why Subscribe did not open Checkout.
  const note = error ? (
    <Strip tone="warn" testId="plan-note">
      {error}
    </Strip>
  ) : null;
  if (state.offer && state.freeAnswersLeft !== null) {
    return (
      <>
        {note}
        <FreeAnswers
          creator={creator}
          fanId={fanId}
          left={state.freeAnswersLeft}
          showCount={state.freeAnswersLeft < FAN_FREE_ANSWERS_SHOWN_BELOW}
        />
      </>
    );
  }
  return note;
}

/** The free answers left when few remain, and a way back in for a subscriber on a new device. */
function FreeAnswers({
  creator,
  fanId,
  left,
  showCount,
}: {
  creator: string;
  fanId: string;
  left: number;
  showCount: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <div className="shrink-0 bg-slate-50 px-4 py-1.5 text-center text-xs text-slate-700">
      {showCount && (
        <span role="status" data-testid="free-answers-left">
          {planTexts.freeLeft(left)}
          {' · '}
        </span>
      )}
      {open ? (
        <RestoreForm creator={creator} fanId={fanId} />
      ) : (
        <button type="button" onClick={() => setOpen(true)} className="text-brand-700 underline">
          {planTexts.restoreQuestion}
        </button>
      )}
    </div>
  );
}

/** Asks for a one-time restore link by email (a subscriber on a new device). */
function RestoreForm({ creator, fanId }: { creator: string; fanId: string }) {
  const [email, setEmail] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const restore = useMutation({
    mutationFn: () => askRestoreLink(creator, fanId, email),
    onSuccess: ({ message }) => setNote(message),
    onError: (err) => setNote(errorMessage(err, planTexts.somethingFailed)),
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        restore.mutate();
      }}
      className="mt-1 flex flex-col gap-1"
    >
      <div className="flex gap-2">
        <label className="sr-only" htmlFor="restore-email">
          {planTexts.emailFirst}
        </label>
        <input
          id="restore-email"
          type="email"
          required
          autoComplete="email"
          placeholder={planTexts.emailPlaceholder}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          className="min-w-0 flex-1 rounded-full border border-slate-300 px-3 py-1.5 text-sm"
        />
        <button
          type="submit"
          disabled={restore.isPending}
          className="rounded-full bg-brand-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-800"
        >
          {planTexts.restoreAction}
        </button>
      </div>
      {note && <p role="status">{note}</p>}
    </form>
  );
}

function Strip({
  tone,
  children,
  testId,
}: {
  tone: 'brand' | 'warn' | 'quiet';
  children: React.ReactNode;
  testId?: string;
}) {
  const colours =
    tone === 'warn'
      ? 'bg-amber-50 text-amber-900'
      : tone === 'brand'
        ? 'bg-brand-50 text-brand-900'
        : 'bg-slate-50 text-slate-700';
  return (
    <p role="status" data-testid={testId} className={`shrink-0 px-4 py-1.5 text-center text-xs ${colours}`}>
      {children}
    </p>
  );
}

function PlanCard({
  creator,
  fanId,
  offer,
  emailGiven,
  onSubscribe,
  busy,
  error,
  onEmail,
}: {
  creator: string;
  fanId: string;
  offer: NonNullable<Awaited<ReturnType<typeof fetchFanPlan>>>['offer'] & object;
  emailGiven: boolean;
  onSubscribe: (interval: 'month' | 'year') => void;
  busy: boolean;
  error: string | null;
  onEmail: () => void;
}) {
  const [email, setEmail] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [restoring, setRestoring] = useState(false);
  const lead = useMutation({
    mutationFn: () => giveEmail(creator, fanId, email),
    onSuccess: onEmail,
    onError: (err) => setNote(errorMessage(err, planTexts.somethingFailed)),
  });
  const restore = useMutation({
    mutationFn: () => askRestoreLink(creator, fanId, email),
    onSuccess: ({ message }) => setNote(message),
    onError: (err) => setNote(errorMessage(err, planTexts.somethingFailed)),
  });
  const askEmailFirst = offer.leadCapture && !emailGiven && !restoring;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (restoring) restore.mutate();
    else lead.mutate();
  };
  return (
    <section
      aria-label={planTexts.cardHeading(offer.creatorName)}
      data-testid="plan-card"
      className="shrink-0 border-t border-slate-200 bg-white px-4 py-3"
    >
      <div className="flex items-center gap-3">
        {offer.creatorImage && (
          <img
            src={offer.creatorImage}
            alt=""
            className="size-10 rounded-full object-cover"
            width={40}
            height={40}
          />
        )}
        <div>
          <h2 className="text-sm font-semibold text-slate-900">{planTexts.cardHeading(offer.creatorName)}</h2>
          <p className="text-xs text-slate-600">{planTexts.cardLead(offer.creatorName, offer.freeAnswers)}</p>
        </div>
      </div>
      {offer.perks && <p className="mt-2 text-sm text-slate-800">{offer.perks}</p>}
      {askEmailFirst || restoring ? (
        <form onSubmit={submit} className="mt-3 flex gap-2">
          <label className="sr-only" htmlFor="plan-email">
            {planTexts.emailFirst}
          </label>
          <input
            id="plan-email"
            type="email"
            required
            autoComplete="email"
            placeholder={planTexts.emailPlaceholder}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            className="min-w-0 flex-1 rounded-full border border-slate-300 px-3 py-2 text-sm"
          />
          <button
            type="submit"
            disabled={lead.isPending || restore.isPending}
            className="rounded-full bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-800"
          >
            {restoring ? planTexts.restoreAction : planTexts.continue}
          </button>
        </form>
      ) : (
        <div className="mt-3 flex flex-wrap items-center gap-2">
          <button
            type="button"
            disabled={busy}
            onClick={() => onSubscribe('month')}
            className="rounded-full bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-800"
          >
            {busy ? planTexts.opening : `${planTexts.subscribe} · ${planTexts.monthly(offer.monthlyCents)}`}
          </button>
          {offer.yearlyCents !== null && (
            <button
              type="button"
              disabled={busy}
              onClick={() => onSubscribe('year')}
              className="rounded-full border border-brand-700 px-4 py-2 text-sm font-medium text-brand-700 hover:bg-brand-50"
            >
              {planTexts.yearly(offer.yearlyCents)}
            </button>
          )}
          {offer.trialDays > 0 && (
            <span className="text-xs text-slate-600">{planTexts.trial(offer.trialDays)}</span>
          )}
        </div>
      )}
      {!restoring && (
        <button
          type="button"
          onClick={() => setRestoring(true)}
          className="mt-2 text-xs text-brand-700 underline"
        >
          {planTexts.restoreQuestion}
        </button>
      )}
      {(note ?? error) && (
        <p role="status" className="mt-2 text-xs text-slate-700">
          {note ?? error}
        </p>
      )}
    </section>
  );
}
