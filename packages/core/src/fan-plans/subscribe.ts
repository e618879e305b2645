import type { Db } from '../db.ts';
import { accessOpen } from '../entitlement.ts';
import { DomainError } from '../errors.ts';
import type { FanRequester } from '../rights.ts';
import { fanSubscriptionOf, ownFan } from './fan-state.ts';
import { fanPlanOf, payoutAccountOf, payoutsNeedReconnecting } from './settings.ts';

// A fan starting, confirming and managing a subscription: what the api needs to ask Stripe for.

/**
 * What Checkout sells this fan: the creator's live plan at the chosen interval, on the creator's
 * connected account. Refused when the plan is off or the account takes no charges (409 plan_off),
 * when there is no yearly price (400), and when the fan already holds a subscription (409: a second
 * click, another tab, or a fan who subscribed already, never pays twice).
 */
export async function checkoutFor(
  db: Db,
  who: FanRequester,
  input: { creatorId: string; creatorName?: string; fanKey: string; interval: 'month' | 'year' },
  now: Date = new Date(),
) {
  const fan = await ownFan(db, who, input.creatorId, input.fanKey);
  const [plan, account] = await Promise.all([
    fanPlanOf(db, input.creatorId),
    payoutAccountOf(db, input.creatorId),
  ]);
  if (plan?.enabled && account?.lost_at) {
    throw payoutsNeedReconnecting({ creatorName: input.creatorName ?? 'This creator', action: 'subscribe' });
  }
  if (!plan?.enabled || !account?.charges_enabled) {
    throw new DomainError('conflict', 'plan_off', 'This creator does not take subscriptions right now.');
  }
  const priceCents = input.interval === 'year' ? plan.yearlyCents : plan.monthlyCents;
  if (priceCents === null)
    throw new DomainError('invalid', 'no_yearly_price', 'This plan has no yearly price.');
  const sub = await fanSubscriptionOf(db, fan);
  if (sub && accessOpen(sub, now)) {
    throw new DomainError('conflict', 'already_subscribed', 'You are already subscribed to this chat.');
  }
  return { fan, plan, accountId: account.account_id, priceCents };
}

/** The fan's conversation and the creator's account, to read a finished Checkout back. */
export async function confirmFor(db: Db, who: FanRequester, input: { creatorId: string; fanKey: string }) {
  const fan = await ownFan(db, who, input.creatorId, input.fanKey);
  const account = await payoutAccountOf(db, input.creatorId);
  if (!account) throw new DomainError('not_found', 'not_found', 'This creator takes no subscriptions.');
  return { fan, accountId: account.account_id };
}

/** The fan's subscription's customer on the creator's account, for the customer portal. */
export async function portalFor(
  db: Db,
  who: FanRequester,
  input: { creatorId: string; creatorName?: string; fanKey: string },
) {
  const fan = await ownFan(db, who, input.creatorId, input.fanKey);
  const sub = await fanSubscriptionOf(db, fan);
  const account = await payoutAccountOf(db, input.creatorId);
  if (!sub?.provider_customer_id || !account) {
    throw new DomainError('not_found', 'not_found', 'There is no subscription to manage in this browser.');
  }
  if (account.lost_at) {
    throw payoutsNeedReconnecting({ creatorName: input.creatorName ?? 'this creator', action: 'manage' });
  }
  return {
    customerId: sub.provider_customer_id,
    accountId: account.account_id,
    subscriptionId: sub.provider_subscription_id,
  };
}

/** A Checkout session Stripe does not know, or one made for another creator or fan. */
export const noSuchCheckout = () => new DomainError('not_found', 'not_found', 'No such checkout.');

/** The session read back from Stripe must be the one this fan started with this creator. */
export function assertFansCheckout(
  metadata: Record<string, string> | null | undefined,
  input: { creatorId: string; fanId: string },
): void {
  if (metadata?.creatorId !== input.creatorId || metadata?.fanId !== input.fanId) throw noSuchCheckout();
}

/** Features that mail (restore links) refuse while mail is off (production without SMTP_URL). */
export function assertMailOn(mailOn: boolean): void {
  if (!mailOn) {
    throw new DomainError(
      'conflict',
      'mail_off',
      'Restoring a subscription by email is off on this server (no email is configured). Open the chat on the device you subscribed with.',
    );
  }
}

/** Fan subscriptions need a payment provider: without one (no STRIPE_SECRET_KEY) they are off, said so. */
export function assertFanPaymentsOn(on: boolean): void {
  if (!on) {
    throw new DomainError(
      'conflict',
      'payments_off',
      'Fan subscriptions are off on this server: no payment provider is configured (STRIPE_SECRET_KEY).',
    );
  }
}
