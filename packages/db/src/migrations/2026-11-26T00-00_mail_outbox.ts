import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Mail waits in `mail_outbox` from the transaction that asked for it until the background `mail`
 * role has sent it: a request never waits on an SMTP server, a rolled-back change sends nothing, and
 * a failed send is retried with back-off. `queued_at` marks a row handed to the mail queue (the
 * drain takes rows without it); `sent_at` or `failed_at` ends it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('queued_at', 'timestamptz')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('message_id', 'text')
    .addColumn('failed_at', 'timestamptz')
    .execute();
  await sql`create index mail_outbox_unqueued_idx on mail_outbox (created_at) where queued_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mail_outbox').ifExists().execute();
}
