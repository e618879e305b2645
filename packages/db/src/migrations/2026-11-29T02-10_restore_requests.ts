import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Every request for a subscription restore link, by the email's hash (record 0071): the per-email
 * cap counts requests, not mails, so an email that subscribes and one that does not are capped
 * alike, and no email address is kept for a request that mailed nothing. Rows older than the cap's
 * window are deleted as new requests come in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fan_restore_requests')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('email_hash', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('fan_restore_requests_email_idx')
    .on('fan_restore_requests')
    .columns(['email_hash', 'requested_at'])
    .execute();
  await db.schema
    .createIndex('fan_restore_requests_requested_at_idx')
    .on('fan_restore_requests')
    .column('requested_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('fan_restore_requests').ifExists().execute();
}
