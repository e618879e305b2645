import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

export async function up(db: Kysely<unknown>): Promise<void> {
  // A fan's browser that agreed to notifications: its Web Push subscription (RFC 8030 endpoint,
  // RFC 8291 keys). One fan may have several; an endpoint belongs to one fan of one creator.
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('creator_id', 'uuid', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('fan_id', 'uuid', (c) => c.notNull().references('fans.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    /** Whether the notification may show a short preview of the message. */
    .addColumn('preview', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_pushed_at', 'timestamptz')
    .addUniqueConstraint('push_subscriptions_fan_endpoint_uq', ['fan_id', 'endpoint'])
    .execute();
  await db.schema
    .createIndex('push_subscriptions_endpoint_idx')
    .on('push_subscriptions')
    .columns(['endpoint'])
    .execute();
  await db.schema
    .createIndex('push_subscriptions_creator_idx')
    .on('push_subscriptions')
    .columns(['creator_id'])
    .execute();
  // Announcements the creator chose to push: how many devices were targeted and reached.
  await db.schema
    .alterTable('notices')
    .addColumn('push', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('pushed_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('notices').dropColumn('pushed_count').dropColumn('push').execute();
  await db.schema.dropTable('push_subscriptions').execute();
}
