import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

export async function up(db: Kysely<unknown>): Promise<void> {
  // A fan question the AI could not ground in the creator's knowledge (nothing matched, or the
  // model said the material does not answer it): collected for the creator as a knowledge gap
  // until the creator answers it from the gaps card or sets it aside.
  await db.schema
    .alterTable('messages')
    .addColumn('knowledge_gap_at', 'timestamptz')
    .addColumn('gap_closed_at', 'timestamptz')
    .execute();
  await sql`create index messages_open_gaps_idx on messages (creator_id, knowledge_gap_at desc)
    where knowledge_gap_at is not null and gap_closed_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists messages_open_gaps_idx`.execute(db);
  await db.schema.alterTable('messages').dropColumn('gap_closed_at').dropColumn('knowledge_gap_at').execute();
}
