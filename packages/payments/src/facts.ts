// What a payment provider tells the product, in the product's words (record 0070): a fan's
// subscription started or changed, a period was paid (a renewal), a payment failed, a payment was
// refunded or disputed, a creator's payout account became ready, a credit pack was paid. An adapter
// (./stripe.ts) turns its provider's signed events into these; packages/core applies them, once each.

export type SubscriptionStatus =
  | 'incomplete'
  | 'incomplete_expired'
  | 'trialing'
  | 'active'
  | 'past_due'
  | 'unpaid'
  | 'canceled'
  | 'paused';

/** Where a fact came from: the subscription's creator and fan as the checkout's metadata named them. */
export interface FactOwner {
  creatorId: string | null;
  fanId: string | null;
}

/** A fact about a fan's subscription to a creator, or a creator's payout account. */
export type PaymentFact =
  | ({
      /** The fan finished the checkout (the subscription started). */
      kind: 'checkout_completed';
      sessionId: string;
      subscriptionId: string | null;
      customerId: string | null;
      email: string | null;
    } & FactOwner)
  | ({
      /** The subscription's state as the provider describes it (started, changed, cancelled). */
      kind: 'subscription';
      subscriptionId: string;
      customerId: string | null;
      status: SubscriptionStatus;
      /** Seconds since the epoch. */
      currentPeriodEnd: number | null;
      cancelAtPeriodEnd: boolean;
      interval: 'month' | 'year';
      amountCents: number;
      endedAt: number | null;
    } & FactOwner)
  | ({
      /** A period was paid (the first one, or a renewal). */
      kind: 'invoice_paid';
      invoiceId: string;
      subscriptionId: string;
      paymentId: string | null;
      amountCents: number;
      feeCents: number;
      periodEnd: number | null;
    } & FactOwner)
  | ({ kind: 'invoice_failed'; invoiceId: string; subscriptionId: string } & FactOwner)
  /** A paid period's payment was refunded, or disputed by the fan's bank. */
  | { kind: 'reversed'; paymentId: string; reason: 'refund' | 'dispute' }
  /** The creator's payout account: whether it takes charges and pays out. */
  | {
      kind: 'account';
      accountId: string;
      chargesEnabled: boolean;
      payoutsEnabled: boolean;
      detailsSubmitted: boolean;
    };

/** A platform purchase (a creator's credit pack) was paid. */
export interface CreditsPaidFact {
  kind: 'credits_paid';
  purchaseId: string;
  sessionId: string;
  /** The provider's payment, to look its receipt up. */
  paymentId: string | null;
}

/** The provider's event a fact came from: applied once per id, ordered by `created`. */
export interface PaymentEventRef {
  id: string;
  type: string;
  /** When the provider made the event, seconds since the epoch. */
  created: number;
}

export type FactOutcome = 'applied' | 'duplicate' | 'ignored';

/**
 * What the product knows about who owns what, asked by an adapter before it lets a fact through
 * (packages/core answers from the database: paymentOwners).
 */
export interface PaymentOwners {
  /** The creator a subscription belongs to in our records; null: not recorded yet. */
  creatorOfSubscription(subscriptionId: string): Promise<string | null>;
  /** The creator whose fan's recorded payment this is; null: not recorded yet. */
  creatorOfPayment(paymentId: string): Promise<string | null>;
  /** The payout (connected) account recorded for a creator; null: none. */
  payoutAccountOf(creatorId: string): Promise<string | null>;
}
