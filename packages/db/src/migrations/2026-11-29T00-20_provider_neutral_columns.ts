import { type Kysely, sql } from 'kysely';

// Payments behind one port (records 0070, 0069): the tables say what a payment provider's objects
// are, not which provider made them. A fan's subscription names its provider, and the provider's ids
// for the subscription, the customer and each payment; delivered events are remembered per provider
// event id in payment_events. Renames only: every row keeps its values (all Stripe's so far).

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table fan_subscriptions rename column stripe_subscription_id to provider_subscription_id`.execute(
    db,
  );
  await sql`alter table fan_subscriptions rename column stripe_customer_id to provider_customer_id`.execute(
    db,
  );
  await sql`alter table fan_subscriptions add column provider text not null default 'stripe'`.execute(db);
  await sql`alter table fan_subscription_payments rename column stripe_subscription_id to provider_subscription_id`.execute(
    db,
  );
  await sql`alter table fan_subscription_payments rename column payment_intent_id to provider_payment_id`.execute(
    db,
  );
  await sql`alter table stripe_events rename to payment_events`.execute(db);
  await sql`alter table payment_events add column provider text not null default 'stripe'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table payment_events drop column provider`.execute(db);
  await sql`alter table payment_events rename to stripe_events`.execute(db);
  await sql`alter table fan_subscription_payments rename column provider_payment_id to payment_intent_id`.execute(
    db,
  );
  await sql`alter table fan_subscription_payments rename column provider_subscription_id to stripe_subscription_id`.execute(
    db,
  );
  await sql`alter table fan_subscriptions drop column provider`.execute(db);
  await sql`alter table fan_subscriptions rename column provider_customer_id to stripe_customer_id`.execute(
    db,
  );
  await sql`alter table fan_subscriptions rename column provider_subscription_id to stripe_subscription_id`.execute(
    db,
  );
}
