import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

export async function up(db: Kysely<unknown>): Promise<void> {
  // One-time links that move a fan's conversations to another browser (a new phone). Only the
  // SHA-256 of the link's token is kept; the link works once, before it expires, and only while the
  // browser that made it (cookie_hash) still holds the conversation.
  await db.schema
    .createTable('fan_transfers')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('creator_id', 'uuid', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('fan_key', 'text', (c) => c.notNull())
    .addColumn('cookie_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('fan_transfers_expires_idx').on('fan_transfers').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('fan_transfers').ifExists().execute();
}
