import type { Database, FanSubscriptionsTable } from '@fanpilot/db';
import type { FactOutcome, PaymentEventRef, PaymentFact, SubscriptionStatus } from '@fanpilot/payments';
import type { Kysely, Updateable } from 'kysely';
import type { Db } from '../db.ts';
import { accessUntil, graceEnd } from '../entitlement.ts';
import { DomainError } from '../errors.ts';
import { queueMail } from '../mail-outbox.ts';
import { firstDelivery } from '../payment-events.ts';

// Money state from Stripe's events (record 0043). The payment adapter (packages/payments, record
// 0070) turns each signed event it accepts into one provider-neutral fact;
// applyStripeFact applies it once (the event id is remembered in the same transaction) and in any
// order: a subscription's state comes from the newest event that described it (Stripe's `created`),
// a paid invoice only ever moves a period end forward, an ended subscription stays ended, and a
// refund or dispute ends access whatever arrives after it. A fact that names something not known
// yet (a refund before its invoice) is refused with 409, so Stripe delivers it again later.

// The facts are provider-neutral (packages/payments, record 0070); these names stay for core's callers.
export type { FactOutcome, SubscriptionStatus };
export type StripeFact = PaymentFact;
export type StripeEventRef = PaymentEventRef;

const at = (seconds: number | null) => (seconds === null ? null : new Date(seconds * 1000));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Applies one Stripe event's fact once. 'ignored': about nothing this server knows (not ours). */
export async function applyStripeFact(
  db: Kysely<Database>,
  event: StripeEventRef,
  fact: StripeFact,
): Promise<FactOutcome> {
  return db.transaction().execute(async (trx) => {
    if (!(await firstDelivery(trx, event))) return 'duplicate';
    const applied = await applyFact(trx, event, fact);
    return applied ? 'applied' : 'ignored';
  });
}

/**
 * Applies what Stripe answered when asked directly (a Checkout read back on the fan's return, an
 * account read on the creator's return), as of `at` (seconds): the same rules as an event, without
 * an event id (the state's own ordering keeps it harmless to apply twice).
 */
export async function applyStripeReading(
  db: Kysely<Database>,
  at: number,
  fact: StripeFact,
): Promise<boolean> {
  return db.transaction().execute((trx) => applyFact(trx, { id: '', type: 'reading', created: at }, fact));
}

async function applyFact(db: Db, event: StripeEventRef, fact: StripeFact): Promise<boolean> {
  switch (fact.kind) {
    case 'account': {
      const row = await db
        .updateTable('creator_payout_accounts')
        .set({
          charges_enabled: fact.chargesEnabled,
          payouts_enabled: fact.payoutsEnabled,
          details_submitted: fact.detailsSubmitted,
          // The provider describes the account: it knows it again.
          lost_at: null,
          updated_at: new Date(),
        })
        .where('account_id', '=', fact.accountId)
        .returning('creator_id')
        .executeTakeFirst();
      return Boolean(row);
    }
    case 'reversed': {
      const payment = await db
        .updateTable('fan_subscription_payments')
        .set({ reversed: fact.reason })
        .where('provider_payment_id', '=', fact.paymentId)
        .returning('provider_subscription_id')
        .executeTakeFirst();
      if (!payment) {
        throw new DomainError(
          'conflict',
          'not_yet',
          'This event names a payment not recorded yet; Stripe will deliver it again.',
        );
      }
      const sub = await lockSubscription(db, payment.provider_subscription_id);
      if (!sub) return false;
      const endedAt = new Date(event.created * 1000);
      await db
        .updateTable('fan_subscriptions')
        .set({ ended_reason: fact.reason, ended_at: endedAt, access_until: endedAt, grace_until: null })
        .where('id', '=', sub.id)
        .execute();
      return true;
    }
    default:
      break;
  }
  const sub = await ensureSubscription(db, fact);
  if (!sub) return false;
  const newer = event.created >= Number(sub.state_at);
  const ended = sub.ended_reason !== null || sub.status === 'canceled';
  const next: Updateable<FanSubscriptionsTable> = {};
  if ('customerId' in fact && fact.customerId && !sub.provider_customer_id)
    next.provider_customer_id = fact.customerId;
  if (fact.fanId && UUID.test(fact.fanId) && !sub.fan_id) {
    const fan = await db
      .selectFrom('fans')
      .select('id')
      .where('id', '=', fact.fanId)
      .where('creator_id', '=', sub.creator_id)
      .executeTakeFirst();
    if (fan) next.fan_id = fan.id;
  }
  switch (fact.kind) {
    case 'checkout_completed': {
      next.checkout_session_id = fact.sessionId;
      if (fact.email) next.email = fact.email.trim().toLowerCase();
      next.started_at = sub.started_at ?? new Date(event.created * 1000);
      break;
    }
    case 'subscription': {
      next.interval = fact.interval;
      if (fact.amountCents > 0) next.amount_cents = fact.amountCents;
      if (newer && !ended) {
        next.status = fact.status;
        next.current_period_end = at(fact.currentPeriodEnd);
        next.cancel_at_period_end = fact.cancelAtPeriodEnd;
        next.state_at = String(event.created);
        if (fact.status === 'active' || fact.status === 'trialing') next.grace_until = null;
        // Past due before the failed invoice's own event arrived: the grace runs from now.
        if (fact.status === 'past_due' && !sub.grace_until)
          next.grace_until = graceEnd(new Date(event.created * 1000));
        if (fact.status === 'canceled') next.ended_at = at(fact.endedAt) ?? new Date(event.created * 1000);
        if (fact.status === 'active' || fact.status === 'trialing')
          next.started_at = sub.started_at ?? new Date(event.created * 1000);
      }
      break;
    }
    case 'invoice_paid': {
      await db
        .insertInto('fan_subscription_payments')
        .values({
          invoice_id: fact.invoiceId,
          provider_subscription_id: fact.subscriptionId,
          provider_payment_id: fact.paymentId,
          amount_cents: fact.amountCents,
          fee_cents: fact.feeCents,
          paid_at: new Date(event.created * 1000),
        })
        .onConflict((oc) => oc.column('invoice_id').doNothing())
        .execute();
      const periodEnd = at(fact.periodEnd);
      if (periodEnd && (!sub.current_period_end || periodEnd > new Date(sub.current_period_end)))
        next.current_period_end = periodEnd;
      if (newer && !ended && sub.status !== 'active' && sub.status !== 'trialing') {
        next.status = 'active';
        next.grace_until = null;
        next.state_at = String(event.created);
      }
      next.started_at = sub.started_at ?? new Date(event.created * 1000);
      break;
    }
    case 'invoice_failed': {
      if (newer && !ended) {
        next.status = 'past_due';
        // The grace runs from the first failure of this renewal, not again from each retry.
        next.grace_until =
          sub.status === 'past_due' && sub.grace_until
            ? new Date(sub.grace_until)
            : graceEnd(new Date(event.created * 1000));
        next.state_at = String(event.created);
        // The fan is told by email too (the chat says it the next time it is opened).
        if (sub.email && event.id) await tellPaymentFailed(db, sub.creator_id, sub.email, next.grace_until);
      }
      break;
    }
  }
  const merged = { ...sub, ...next } as typeof sub;
  merged.access_until = accessUntil(merged);
  next.access_until = merged.access_until;
  await db.updateTable('fan_subscriptions').set(next).where('id', '=', sub.id).execute();
  // The fan who subscribed (the measured conversion), and the email the provider proved for them:
  // the customer email of their own Checkout joins their circle (entitlement.ts).
  if (merged.fan_id && merged.access_until && (merged.started_at || merged.status === 'active')) {
    await db
      .updateTable('fans')
      .set((eb) => ({
        subscribed_at: eb.fn.coalesce('subscribed_at', eb.val(new Date(event.created * 1000))),
        ...(merged.email ? { proved_email: merged.email.toLowerCase() } : {}),
        email: eb.fn.coalesce('email', eb.val(merged.email)),
      }))
      .where('id', '=', merged.fan_id)
      .execute();
  }
  return true;
}

/** Mails the subscriber that a renewal failed and until when access lasts (once per failed invoice event). */
async function tellPaymentFailed(db: Db, creatorId: string, email: string, until: Date): Promise<void> {
  const creator = await db
    .selectFrom('creators')
    .select(['name'])
    .where('id', '=', creatorId)
    .executeTakeFirst();
  if (!creator) return;
  const date = until.toISOString().slice(0, 10);
  await queueMail(db, {
    purpose: 'payment_failed',
    to: email,
    subject: `Your payment to ${creator.name} did not go through`,
    text: `Your card was declined when your subscription to ${creator.name} renewed. You keep access until ${date} while the card is tried again.\n\nTo update your card, open your chat with ${creator.name} and choose "Manage subscription".`,
  });
}

const lockSubscription = (db: Db, subscriptionId: string) =>
  db
    .selectFrom('fan_subscriptions')
    .selectAll()
    .where('provider_subscription_id', '=', subscriptionId)
    .forUpdate()
    .executeTakeFirst();

/**
 * The subscription a fact is about, made on first sight (whichever event comes first), locked.
 * Undefined when the fact names no subscription, or a creator this server does not know.
 */
async function ensureSubscription(db: Db, fact: Exclude<StripeFact, { kind: 'account' | 'reversed' }>) {
  const subscriptionId = fact.subscriptionId;
  if (!subscriptionId) return undefined;
  const known = await lockSubscription(db, subscriptionId);
  if (known) return known;
  if (!fact.creatorId || !UUID.test(fact.creatorId)) return undefined;
  const creator = await db
    .selectFrom('creators')
    .select('id')
    .where('id', '=', fact.creatorId)
    .executeTakeFirst();
  if (!creator) return undefined;
  await db
    .insertInto('fan_subscriptions')
    .values({ creator_id: creator.id, provider_subscription_id: subscriptionId })
    .onConflict((oc) => oc.column('provider_subscription_id').doNothing())
    .execute();
  return lockSubscription(db, subscriptionId);
}
