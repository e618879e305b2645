import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

export async function up(db: Kysely<unknown>): Promise<void> {
  // The Idempotency-Key a fan's page sent with a question (POST /api/ask), so a resent question is
  // stored once. Null for everything else, and for keys released after their window.
  await db.schema
    .alterTable('messages')
    .addColumn('client_key', 'text', (col) => col.check(sql`char_length(client_key) between 1 and 100`))
    .execute();
  // One question per key and fan (a fan row is one creator's fan): the index decides between
  // concurrent resends.
  await sql`create unique index messages_fan_client_key_uq on messages (fan_id, client_key) where client_key is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists messages_fan_client_key_uq`.execute(db);
  await db.schema.alterTable('messages').dropColumn('client_key').execute();
}
