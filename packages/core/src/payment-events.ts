import type { PaymentEventRef, PaymentOwners } from '@fanpilot/payments';
import type { Db } from './db.ts';

// Payment providers' events (record 0070): each is applied once, whatever it is about. The one
// place an event's id is remembered; call it inside the transaction that applies the event, so a
// failure forgets the id too and the provider's redelivery is applied then.

/** Whether this is the event's first delivery (its id is remembered now); false: a duplicate. */
export async function firstDelivery(db: Db, event: Pick<PaymentEventRef, 'id' | 'type'>): Promise<boolean> {
  const fresh = await db
    .insertInto('payment_events')
    .values({ id: event.id, type: event.type })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return Boolean(fresh);
}

/** Who owns what, from our records: what a payment adapter checks an event's origin against. */
export function paymentOwners(db: Db): PaymentOwners {
  return {
    async creatorOfSubscription(subscriptionId) {
      const row = await db
        .selectFrom('fan_subscriptions')
        .select('creator_id')
        .where('provider_subscription_id', '=', subscriptionId)
        .executeTakeFirst();
      return row?.creator_id ?? null;
    },
    async creatorOfPayment(paymentId) {
      const row = await db
        .selectFrom('fan_subscription_payments as p')
        .innerJoin('fan_subscriptions as s', 's.provider_subscription_id', 'p.provider_subscription_id')
        .select('s.creator_id')
        .where('p.provider_payment_id', '=', paymentId)
        .executeTakeFirst();
      return row?.creator_id ?? null;
    },
    async payoutAccountOf(creatorId) {
      const row = await db
        .selectFrom('creator_payout_accounts')
        .select('account_id')
        .where('creator_id', '=', creatorId)
        .executeTakeFirst();
      return row?.account_id ?? null;
    },
  };
}
