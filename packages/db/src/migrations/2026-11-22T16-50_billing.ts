import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

export async function up(db: Kysely<unknown>): Promise<void> {
  // A creator buying a pack of credits: made when checkout starts, paid once the payment provider
  // says so (Stripe's checkout.session.completed, or the local test checkout).
  await db.schema
    .createTable('credit_purchases')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('creator_id', 'uuid', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('pack', 'text', (c) => c.notNull())
    .addColumn('credits', 'integer', (c) => c.notNull().check(sql`credits > 0`))
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('usd'))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`status in ('pending', 'paid')`),
    )
    .addColumn('provider', 'text', (c) => c.notNull().check(sql`provider in ('stripe', 'test')`))
    .addColumn('checkout_session_id', 'text', (c) => c.unique())
    .addColumn('receipt_url', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('paid_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('credit_purchases_creator_idx')
    .on('credit_purchases')
    .columns(['creator_id', 'created_at'])
    .execute();
  // Each Stripe event is applied once, however often Stripe delivers it.
  await db.schema
    .createTable('stripe_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // A purchase's credits enter the ledger once.
  await db.schema
    .alterTable('credit_ledger')
    .addColumn('purchase_id', 'uuid', (c) => c.references('credit_purchases.id'))
    .execute();
  await sql`create unique index credit_ledger_one_purchase_uq on credit_ledger (purchase_id) where reason = 'purchase'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists credit_ledger_one_purchase_uq`.execute(db);
  await db.schema.alterTable('credit_ledger').dropColumn('purchase_id').execute();
  await db.schema.dropTable('stripe_events').execute();
  await db.schema.dropTable('credit_purchases').execute();
}
