import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Push within reason (issue #23). One device is one endpoint per creator (a repeat subscribe moves
 * it, never adds it); a browser keeps at most 3 subscriptions per creator (the newest: a subscribe
 * past that replaces the oldest); and `push_deliveries` remembers which message or announcement
 * each device was pushed, so a trigger that fires twice never pushes twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // When the browser last subscribed with this endpoint: the cap keeps the newest.
  await db.schema
    .alterTable('push_subscriptions')
    .addColumn('subscribed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`update push_subscriptions set subscribed_at = created_at`.execute(db);

  // One row per creator and endpoint: the newest survives.
  await sql`
    delete from push_subscriptions p
    using push_subscriptions newer
    where newer.creator_id = p.creator_id and newer.endpoint = p.endpoint
      and (newer.subscribed_at, newer.id) > (p.subscribed_at, p.id)`.execute(db);
  await db.schema
    .alterTable('push_subscriptions')
    .dropConstraint('push_subscriptions_fan_endpoint_uq')
    .execute();
  await db.schema
    .alterTable('push_subscriptions')
    .addUniqueConstraint('push_subscriptions_creator_endpoint_uq', ['creator_id', 'endpoint'])
    .execute();
  await db.schema
    .createIndex('push_subscriptions_fan_idx')
    .on('push_subscriptions')
    .columns(['fan_id', 'subscribed_at'])
    .execute();

  // At most 3 per browser (its fan cookie; a fan with none on its own) and creator: the newest.
  await sql`
    delete from push_subscriptions where id in (
      select id from (
        select p.id, row_number() over (
          partition by p.creator_id, coalesce(f.cookie_hash, f.id::text)
          order by p.subscribed_at desc, p.id desc
        ) as n
        from push_subscriptions p join fans f on f.id = p.fan_id
      ) ranked
      where ranked.n > 3
    )`.execute(db);

  // Which message or announcement each device was pushed (claimed before the push service is
  // called, released when the call fails and will be retried).
  await db.schema
    .createTable('push_deliveries')
    .addColumn('subscription_id', 'uuid', (c) =>
      c.notNull().references('push_subscriptions.id').onDelete('cascade'),
    )
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ref_id', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('push_deliveries_pk', ['subscription_id', 'kind', 'ref_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('push_deliveries').execute();
  await db.schema.dropIndex('push_subscriptions_fan_idx').execute();
  await db.schema
    .alterTable('push_subscriptions')
    .dropConstraint('push_subscriptions_creator_endpoint_uq')
    .execute();
  await db.schema
    .alterTable('push_subscriptions')
    .addUniqueConstraint('push_subscriptions_fan_endpoint_uq', ['fan_id', 'endpoint'])
    .execute();
  await db.schema.alterTable('push_subscriptions').dropColumn('subscribed_at').execute();
}
