import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Fans pay their creator (issue 26, record 0043): the creator's Stripe Connect account and its
 * state, the creator's plan (prices, trial, the free allowance), fans' subscriptions on the
 * creator's account keyed to an email, the invoices paid (earnings, and what a refund or dispute
 * names), one-time restore links, and per fan the moments that make the conversion measurable
 * (the paywall met, subscribed) and the email they gave.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('creator_payout_accounts')
    .addColumn('creator_id', 'uuid', (c) => c.primaryKey().references('creators.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().unique())
    .addColumn('charges_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('payouts_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('details_submitted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('fan_plans')
    .addColumn('creator_id', 'uuid', (c) => c.primaryKey().references('creators.id').onDelete('cascade'))
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('monthly_cents', 'integer', (c) => c.notNull())
    .addColumn('yearly_cents', 'integer')
    .addColumn('trial_days', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('free_answers', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('perks', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('lead_capture', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('fan_subscriptions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('creator_id', 'uuid', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('stripe_subscription_id', 'text', (c) => c.notNull().unique())
    .addColumn('stripe_customer_id', 'text')
    .addColumn('checkout_session_id', 'text')
    .addColumn('fan_id', 'uuid', (c) => c.references('fans.id').onDelete('set null'))
    .addColumn('email', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('incomplete'))
    .addColumn('interval', 'text', (c) => c.notNull().defaultTo('month'))
    .addColumn('amount_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('current_period_end', 'timestamptz')
    .addColumn('cancel_at_period_end', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('grace_until', 'timestamptz')
    .addColumn('access_until', 'timestamptz')
    .addColumn('ended_reason', 'text')
    .addColumn('started_at', 'timestamptz')
    .addColumn('ended_at', 'timestamptz')
    .addColumn('state_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index fan_subscriptions_email_idx on fan_subscriptions (creator_id, lower(email))`.execute(
    db,
  );
  await sql`create index fan_subscriptions_fan_idx on fan_subscriptions (fan_id)`.execute(db);
  await db.schema
    .createTable('fan_subscription_payments')
    .addColumn('invoice_id', 'text', (c) => c.primaryKey())
    .addColumn('stripe_subscription_id', 'text', (c) => c.notNull())
    .addColumn('payment_intent_id', 'text')
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('fee_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('paid_at', 'timestamptz', (c) => c.notNull())
    .addColumn('reversed', 'text')
    .execute();
  await sql`create index fan_subscription_payments_intent_idx on fan_subscription_payments (payment_intent_id)`.execute(
    db,
  );
  await db.schema
    .createTable('fan_restore_links')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('creator_id', 'uuid', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema
    .alterTable('fans')
    .addColumn('email', 'text')
    .addColumn('paywall_met_at', 'timestamptz')
    .addColumn('subscribed_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('fans')
    .dropColumn('email')
    .dropColumn('paywall_met_at')
    .dropColumn('subscribed_at')
    .execute();
  await db.schema.dropTable('fan_restore_links').ifExists().execute();
  await db.schema.dropTable('fan_subscription_payments').ifExists().execute();
  await db.schema.dropTable('fan_subscriptions').ifExists().execute();
  await db.schema.dropTable('fan_plans').ifExists().execute();
  await db.schema.dropTable('creator_payout_accounts').ifExists().execute();
}
