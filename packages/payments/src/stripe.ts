import Stripe from 'stripe';
import type {
  CreditsPaidFact,
  PaymentEventRef,
  PaymentFact,
  PaymentOwners,
  SubscriptionStatus,
} from './facts.ts';

// The Stripe adapter (record 0070): a webhook delivery is checked (signature on the exact bytes,
// with the endpoint's secret) and turned into one fact, and a fact is let through only from where
// it can come from. Fans pay their creator on the creator's connected account (record 0043), so an
// event about a fan's subscription, invoice, checkout or payment must come from Connect (`account`
// set) and from THAT creator's account; a creator's account update from that account itself; a
// credit pack is the platform's own sale, so its checkout comes without `account`.

/** The signing secrets of the endpoints that post to the webhook. */
export interface StripeWebhookSecrets {
  /** The platform account's endpoint (STRIPE_WEBHOOK_SECRET). */
  platform: string | null;
  /** The Connect endpoint, connected accounts' events (STRIPE_CONNECT_WEBHOOK_SECRET), when another. */
  connect?: string | null;
  /** The local stand-in's secret (`pnpm start` without keys; never in production). */
  local?: string | null;
}

/** Why an event signed correctly is still not accepted. */
export type RefusedReason = 'not_from_connect' | 'not_from_platform' | 'wrong_account' | 'wrong_endpoint';

/** One webhook delivery, as the adapter judged it. */
export type StripeDelivery =
  | { kind: 'bad_signature' }
  | { kind: 'refused'; event: PaymentEventRef; reason: RefusedReason; message: string }
  | { kind: 'fan'; event: PaymentEventRef; fact: PaymentFact }
  | { kind: 'credits'; event: PaymentEventRef; fact: CreditsPaidFact }
  /** Signed and from where it may come, but about nothing the product acts on. */
  | { kind: 'unhandled'; event: PaymentEventRef };

const REFUSALS: Record<RefusedReason, string> = {
  not_from_connect:
    "Fans' subscriptions are paid on the creator's connected account: an event about one is accepted only from Connect.",
  not_from_platform:
    'Credit packs are sold by the platform account: an event about one from a connected account is not accepted.',
  wrong_account:
    'This event comes from a connected account that is not the payout account of the creator it is about.',
  wrong_endpoint: "This event is signed with another endpoint's secret than the one its origin posts to.",
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks a delivery's signature (Stripe's five-minute tolerance refuses replays) and where it
 * comes from, and turns it into a fact. A refused event changes nothing; the caller acknowledges it
 * (2xx: Stripe would deliver the same refused event again for days otherwise).
 */
export async function receiveStripeEvent(
  body: Buffer,
  signature: string,
  options: { secrets: StripeWebhookSecrets; feePercent: number; owners: PaymentOwners },
): Promise<StripeDelivery> {
  const verified = verify(body, signature, options.secrets);
  if (!verified) return { kind: 'bad_signature' };
  const { event, signedFor } = verified;
  const ref: PaymentEventRef = { id: event.id, type: event.type, created: event.created };
  const account = typeof event.account === 'string' && event.account ? event.account : null;
  const refuse = (reason: RefusedReason): StripeDelivery => ({
    kind: 'refused',
    event: ref,
    reason,
    message: REFUSALS[reason],
  });
  // With a Connect endpoint of its own, each endpoint's secret signs only its own kind of event.
  if (signedFor === 'platform' && account) return refuse('wrong_endpoint');
  if (signedFor === 'connect' && !account) return refuse('wrong_endpoint');

  const credits = creditsFact(event);
  if (credits) return account ? refuse('not_from_platform') : { kind: 'credits', event: ref, fact: credits };
  const fact = eventFact(event, options.feePercent);
  if (!fact) return { kind: 'unhandled', event: ref };
  if (!account) return refuse('not_from_connect');
  const owner = await ownerAccount(fact, options.owners);
  if (owner === 'not_known_yet') return { kind: 'fan', event: ref, fact };
  if (owner !== account) return refuse('wrong_account');
  return { kind: 'fan', event: ref, fact };
}

/**
 * The connected account a fact must come from: the account itself for an account's update; for a
 * subscription, invoice or checkout, the payout account of its creator (our record of the
 * subscription first, the checkout's metadata for one not recorded yet); for a refund or dispute,
 * that of the creator whose payment it is. 'not_known_yet': a refund or dispute of a payment not
 * recorded yet, which core answers with "deliver it again later".
 */
async function ownerAccount(
  fact: PaymentFact,
  owners: PaymentOwners,
): Promise<string | null | 'not_known_yet'> {
  switch (fact.kind) {
    case 'account':
      return fact.accountId;
    case 'reversed': {
      const creatorId = await owners.creatorOfPayment(fact.paymentId);
      return creatorId ? owners.payoutAccountOf(creatorId) : 'not_known_yet';
    }
    default: {
      const recorded = fact.subscriptionId ? await owners.creatorOfSubscription(fact.subscriptionId) : null;
      const creatorId = recorded ?? (fact.creatorId && UUID.test(fact.creatorId) ? fact.creatorId : null);
      return creatorId ? owners.payoutAccountOf(creatorId) : null;
    }
  }
}

/** The event, and which endpoint's secret signed it; undefined when no secret does. */
function verify(body: Buffer, signature: string, secrets: StripeWebhookSecrets) {
  const separate = Boolean(secrets.platform && secrets.connect && secrets.platform !== secrets.connect);
  const tries: { secret: string; signedFor: 'platform' | 'connect' | 'any' }[] = [];
  if (secrets.platform) tries.push({ secret: secrets.platform, signedFor: separate ? 'platform' : 'any' });
  if (secrets.connect && secrets.connect !== secrets.platform)
    tries.push({ secret: secrets.connect, signedFor: separate ? 'connect' : 'any' });
  if (secrets.local) tries.push({ secret: secrets.local, signedFor: 'any' });
  for (const { secret, signedFor } of tries) {
    try {
      return { event: Stripe.webhooks.constructEvent(body, signature, secret), signedFor };
    } catch {
      // The next secret, if any.
    }
  }
  return undefined;
}

const str = (v: unknown): string | null =>
  typeof v === 'string'
    ? v
    : v && typeof v === 'object' && 'id' in v
      ? String((v as { id: unknown }).id)
      : null;

const owner = (metadata: Stripe.Metadata | null | undefined) => ({
  creatorId: metadata?.creatorId ?? null,
  fanId: metadata?.fanId ?? null,
});

export const accountFact = (account: Stripe.Account): PaymentFact => ({
  kind: 'account',
  accountId: account.id,
  chargesEnabled: Boolean(account.charges_enabled),
  payoutsEnabled: Boolean(account.payouts_enabled),
  detailsSubmitted: Boolean(account.details_submitted),
});

export function checkoutFact(session: Stripe.Checkout.Session): PaymentFact {
  return {
    kind: 'checkout_completed',
    sessionId: session.id,
    subscriptionId: str(session.subscription),
    customerId: str(session.customer),
    email: session.customer_details?.email ?? session.customer_email ?? null,
    ...owner(session.metadata),
  };
}

const STATUSES: readonly SubscriptionStatus[] = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'unpaid',
  'canceled',
  'paused',
];

export function subscriptionFact(sub: Stripe.Subscription): PaymentFact {
  const item = sub.items?.data?.[0];
  const raw = sub as unknown as { current_period_end?: number };
  return {
    kind: 'subscription',
    subscriptionId: sub.id,
    customerId: str(sub.customer),
    status: STATUSES.includes(sub.status as SubscriptionStatus)
      ? (sub.status as SubscriptionStatus)
      : 'incomplete',
    currentPeriodEnd: item?.current_period_end ?? raw.current_period_end ?? null,
    cancelAtPeriodEnd: Boolean(sub.cancel_at_period_end),
    interval: item?.price?.recurring?.interval === 'year' ? 'year' : 'month',
    amountCents: item?.price?.unit_amount ?? 0,
    endedAt: sub.ended_at ?? null,
    ...owner(sub.metadata),
  };
}

/** The subscription an invoice is for, with the metadata Checkout gave it. */
function invoiceParent(invoice: Stripe.Invoice) {
  const details = invoice.parent?.subscription_details;
  return { subscriptionId: str(details?.subscription), metadata: details?.metadata ?? null };
}

export function invoiceFact(invoice: Stripe.Invoice, paid: boolean, feePercent: number): PaymentFact | null {
  const { subscriptionId, metadata } = invoiceParent(invoice);
  if (!subscriptionId || !invoice.id) return null;
  if (!paid) return { kind: 'invoice_failed', invoiceId: invoice.id, subscriptionId, ...owner(metadata) };
  const payment = invoice.payments?.data?.find((p) => p.payment?.payment_intent);
  const amount = invoice.amount_paid ?? 0;
  const periodEnd = invoice.lines?.data?.[0]?.period?.end ?? null;
  return {
    kind: 'invoice_paid',
    invoiceId: invoice.id,
    subscriptionId,
    paymentId: str(payment?.payment?.payment_intent),
    amountCents: amount,
    // The application fee Checkout set (PLATFORM_FEE_PERCENT) on what was paid.
    feeCents: Math.round((amount * feePercent) / 100),
    periodEnd,
    ...owner(metadata),
  };
}

/** A Stripe event about fans' subscriptions or connected accounts, as a fact (null: not one of those). */
export function eventFact(event: Stripe.Event, feePercent: number): PaymentFact | null {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      return session.mode === 'subscription' ? checkoutFact(session) : null;
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return subscriptionFact(event.data.object);
    case 'invoice.paid':
      return invoiceFact(event.data.object, true, feePercent);
    case 'invoice.payment_failed':
      return invoiceFact(event.data.object, false, feePercent);
    case 'account.updated':
      return accountFact(event.data.object);
    case 'charge.refunded': {
      const intent = str(event.data.object.payment_intent);
      return intent ? { kind: 'reversed', paymentId: intent, reason: 'refund' } : null;
    }
    case 'charge.dispute.created': {
      const intent = str(event.data.object.payment_intent);
      return intent ? { kind: 'reversed', paymentId: intent, reason: 'dispute' } : null;
    }
    default:
      return null;
  }
}

/** A paid credit-pack checkout (payment mode, the purchase in its metadata), as a fact. */
export function creditsFact(event: Stripe.Event): CreditsPaidFact | null {
  if (
    event.type !== 'checkout.session.completed' &&
    event.type !== 'checkout.session.async_payment_succeeded'
  )
    return null;
  const session = event.data.object as Stripe.Checkout.Session;
  if (session.mode === 'subscription') return null;
  const purchaseId = session.metadata?.purchaseId ?? session.client_reference_id ?? '';
  if (session.payment_status !== 'paid' || !UUID.test(purchaseId)) return null;
  return {
    kind: 'credits_paid',
    purchaseId,
    sessionId: session.id,
    paymentId: typeof session.payment_intent === 'string' ? session.payment_intent : null,
  };
}

/** The receipt of a paid credit pack, as Stripe shows it (null: none found). */
export async function stripeReceiptUrl(stripe: Stripe, paymentId: string): Promise<string | null> {
  const intent = await stripe.paymentIntents.retrieve(paymentId, { expand: ['latest_charge'] });
  const charge = intent.latest_charge;
  return charge && typeof charge === 'object' ? (charge.receipt_url ?? null) : null;
}

/**
 * What Stripe said it does not know, from an error it answered with: the connected account (the
 * `Stripe-Account` a call named is not the platform's any more, `account_invalid`, or a read of the
 * account found nothing), or the customer (a portal for a customer it has no record of). Null for
 * any other error (an outage, a bad request): those are not "unknown".
 */
export function unknownToStripe(err: unknown): 'account' | 'customer' | null {
  const e = err as { code?: string; statusCode?: number; message?: string; param?: string } | null;
  if (!e || typeof e !== 'object') return null;
  if (e.code === 'account_invalid') return 'account';
  if (e.code !== 'resource_missing') return null;
  const text = `${e.param ?? ''} ${e.message ?? ''}`;
  if (/\baccount\b/i.test(text)) return 'account';
  if (/\bcustomer\b/i.test(text)) return 'customer';
  return null;
}
