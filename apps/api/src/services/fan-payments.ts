import {
  applyStripeReading,
  assertFansCheckout,
  checkoutFor,
  confirmFor,
  type FanRequester,
  noSuchCheckout,
  notePayoutAccountLost,
  type PayoutReport,
  payoutAccountOf,
  portalFor,
  recordPayoutAccount,
  replaceLostPayoutAccount,
  subscriptionUnknownToProvider,
} from '@fanpilot/core';
import type { CreatorRow, Database } from '@fanpilot/db';
import { accountFact, checkoutFact, subscriptionFact, unknownToStripe } from '@fanpilot/payments';
import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import { HttpError } from '../errors.ts';
import type { Payments } from './billing.ts';

// Fans paying their creator through Stripe Connect (record 0043): the api's side is asking Stripe
// (accounts, account links, Checkout in subscription mode on the creator's account with the
// platform's application fee, the customer portal, payouts); Stripe's objects become facts in the
// Stripe adapter (packages/payments, record 0070). Every rule about them is core's.

const providerDown = (cause: unknown, what: string) =>
  Object.assign(
    new HttpError(502, 'payment_provider_error', `The payment provider could not ${what}. Please try again.`),
    { cause },
  );

const seconds = () => Math.floor(Date.now() / 1000);

/** The creator's connected account: made on first use (Express), then an onboarding link to it. */
export async function connectPayouts(
  db: Kysely<Database>,
  stripe: Stripe,
  creator: CreatorRow,
  publicOrigin: string,
  retried = false,
): Promise<{ url: string }> {
  const back = `${publicOrigin}/dashboard/${encodeURIComponent(creator.username)}?payouts=`;
  try {
    const known = await payoutAccountOf(db, creator.id);
    let accountId: string | undefined = known?.account_id;
    if (!known || known.lost_at) {
      // A first account, or a new one in place of an account Stripe no longer knows (reconnecting).
      const account = await stripe.accounts.create(
        {
          type: 'express',
          email: creator.email,
          metadata: { creatorId: creator.id },
          capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
        },
        {
          idempotencyKey: known?.lost_at
            ? `connect-${creator.id}-${new Date(known.lost_at).getTime()}`
            : `connect-${creator.id}`,
        },
      );
      if (known?.lost_at) {
        await replaceLostPayoutAccount(db, creator.id, account.id);
        accountId = account.id;
      } else {
        accountId = await recordPayoutAccount(db, creator.id, account.id);
      }
    }
    if (!accountId) throw new Error('no connected account was recorded');
    const link = await stripe.accountLinks.create({
      account: accountId,
      type: 'account_onboarding',
      refresh_url: `${back}refresh`,
      return_url: `${back}return`,
    });
    return { url: link.url };
  } catch (err) {
    const row = await payoutAccountOf(db, creator.id);
    if (unknownToStripe(err) === 'account' && row && !row.lost_at && !retried) {
      // Stripe forgot the account since it was made: note it, and start over with a new one.
      await notePayoutAccountLost(db, creator.id, row.account_id, {
        creatorName: creator.name,
        action: 'subscribe',
      });
      return connectPayouts(db, stripe, creator, publicOrigin, true);
    }
    throw providerDown(err, 'start payouts onboarding');
  }
}

/** Reads the connected account from Stripe (the creator is back from onboarding) and keeps its state. */
export async function refreshPayouts(db: Kysely<Database>, stripe: Stripe, creatorId: string): Promise<void> {
  const row = await payoutAccountOf(db, creatorId);
  if (!row || row.lost_at) return;
  let account: Stripe.Account;
  try {
    account = await stripe.accounts.retrieve(row.account_id);
  } catch (err) {
    if (unknownToStripe(err) !== 'account') throw err;
    // Stripe no longer knows it: the dashboard says so and offers to reconnect payouts.
    await notePayoutAccountLost(db, creatorId, row.account_id, { creatorName: '', action: 'subscribe' });
    return;
  }
  await applyStripeReading(db, seconds(), accountFact(account));
}

/** Stripe Checkout in subscription mode for this fan, on the creator's account, with the platform's fee. */
export async function startFanCheckout(
  db: Kysely<Database>,
  payments: Payments & { stripe: Stripe },
  who: FanRequester,
  input: { creator: CreatorRow; fanKey: string; interval: 'month' | 'year'; publicOrigin: string },
): Promise<{ url: string }> {
  const { fan, plan, accountId, priceCents } = await checkoutFor(db, who, {
    creatorId: input.creator.id,
    creatorName: input.creator.name,
    fanKey: input.fanKey,
    interval: input.interval,
  });
  const back = `${input.publicOrigin}/pwa/${encodeURIComponent(input.creator.username)}`;
  const metadata = { creatorId: input.creator.id, fanId: fan.id, kind: 'fan_subscription' };
  // The same fan and price within ten minutes is the same Checkout (a double click, a retry).
  const bucket = Math.floor(Date.now() / 600_000);
  let session: Stripe.Checkout.Session;
  try {
    session = await payments.stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: priceCents,
              recurring: { interval: input.interval },
              product_data: { name: `${input.creator.name} on Fanpilot` },
            },
          },
        ],
        subscription_data: {
          application_fee_percent: payments.feePercent,
          metadata,
          ...(plan.trialDays > 0 ? { trial_period_days: plan.trialDays } : {}),
        },
        ...(fan.email ? { customer_email: fan.email } : {}),
        metadata,
        success_url: `${back}?subscribed={CHECKOUT_SESSION_ID}`,
        cancel_url: `${back}?subscribe=cancelled`,
      },
      {
        stripeAccount: accountId,
        idempotencyKey: `fan-checkout-${fan.id}-${input.interval}-${priceCents}-${bucket}`,
      },
    );
  } catch (err) {
    if (unknownToStripe(err) === 'account') {
      throw await notePayoutAccountLost(db, input.creator.id, accountId, {
        creatorName: input.creator.name,
        action: 'subscribe',
      });
    }
    throw providerDown(err, 'start the checkout');
  }
  if (!session.url)
    throw new HttpError(502, 'payment_provider_error', 'The payment provider gave no checkout page.');
  return { url: session.url };
}

/**
 * Back from Checkout: the session is read from Stripe (not taken from the browser) and applied as
 * the webhook would, so the chat opens at once. A session of another creator or fan changes nothing.
 */
export async function confirmFanCheckout(
  db: Kysely<Database>,
  stripe: Stripe,
  who: FanRequester,
  input: { creator: CreatorRow; fanKey: string; sessionId: string },
): Promise<void> {
  const { fan, accountId } = await confirmFor(db, who, { creatorId: input.creator.id, fanKey: input.fanKey });
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.retrieve(
      input.sessionId,
      { expand: ['subscription'] },
      { stripeAccount: accountId },
    );
  } catch (err) {
    if (unknownToStripe(err) === 'account') {
      throw await notePayoutAccountLost(db, input.creator.id, accountId, {
        creatorName: input.creator.name,
        action: 'subscribe',
      });
    }
    if ((err as { statusCode?: number }).statusCode === 404) throw noSuchCheckout();
    throw providerDown(err, 'confirm the checkout');
  }
  assertFansCheckout(session.metadata, { creatorId: input.creator.id, fanId: fan.id });
  if (session.status !== 'complete') return;
  const at = seconds();
  const sub = session.subscription;
  if (sub && typeof sub === 'object') await applyStripeReading(db, at, subscriptionFact(sub));
  await applyStripeReading(db, at, checkoutFact(session));
}

/** Stripe's customer portal for the fan's subscription, on the creator's account. */
export async function fanPortal(
  db: Kysely<Database>,
  stripe: Stripe,
  who: FanRequester,
  input: { creator: CreatorRow; fanKey: string; publicOrigin: string },
): Promise<{ url: string }> {
  const { customerId, accountId } = await portalFor(db, who, {
    creatorId: input.creator.id,
    creatorName: input.creator.name,
    fanKey: input.fanKey,
  });
  try {
    const portal = await stripe.billingPortal.sessions.create(
      {
        customer: customerId,
        return_url: `${input.publicOrigin}/pwa/${encodeURIComponent(input.creator.username)}?subscription=managed`,
      },
      { stripeAccount: accountId },
    );
    return { url: portal.url };
  } catch (err) {
    const unknown = unknownToStripe(err);
    if (unknown === 'account') {
      throw await notePayoutAccountLost(db, input.creator.id, accountId, {
        creatorName: input.creator.name,
        action: 'manage',
      });
    }
    if (unknown === 'customer') throw subscriptionUnknownToProvider(input.creator.name);
    throw providerDown(err, 'open the subscription settings');
  }
}

/** The connected account's latest payouts, as Stripe reports them. */
export async function payoutsReport(
  db: Kysely<Database>,
  stripe: Stripe | null,
  creatorId: string,
): Promise<PayoutReport> {
  const row = await payoutAccountOf(db, creatorId);
  if (!row) return { payouts: [], note: 'Connect payouts to see them here.' };
  if (!stripe) return { payouts: [], note: 'Payouts appear here once Stripe is configured.' };
  const lost = {
    payouts: [],
    note: 'Stripe no longer knows your payout account. Reconnect payouts to take subscriptions again.',
  };
  if (row.lost_at) return lost;
  try {
    const list = await stripe.payouts.list({ limit: 10 }, { stripeAccount: row.account_id });
    return {
      payouts: list.data.map((p) => ({
        id: p.id,
        amountCents: p.amount,
        status: p.status,
        arrivalDate: new Date(p.arrival_date * 1000).toISOString(),
      })),
      note: null,
    };
  } catch (err) {
    if (unknownToStripe(err) === 'account') {
      await notePayoutAccountLost(db, creatorId, row.account_id, { creatorName: '', action: 'subscribe' });
      return lost;
    }
    return { payouts: [], note: 'Stripe could not be asked for payouts just now.' };
  }
}
