import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

export async function up(db: Kysely<unknown>): Promise<void> {
  // A creator's daily AI answer budget, set in Chatbot Settings (one chatbot per creator). Past it,
  // questions wait for the creator. 300 a day unless the creator says otherwise.
  await db.schema
    .alterTable('chatbots')
    .addColumn('daily_ai_budget', 'integer', (col) =>
      col.notNull().defaultTo(300).check(sql`daily_ai_budget between 1 and 100000`),
    )
    .execute();
  // "AI answers today" is counted from the ledger on every answer and every ask: this index keeps
  // that count to the creator's charges since midnight UTC.
  await sql`create index credit_ledger_ai_answer_day_idx on credit_ledger (creator_id, created_at) where reason = 'ai_answer'`.execute(
    db,
  );
  // How many of a creator's questions wait before this one (the answer queue's fairness).
  await sql`create index messages_pending_fan_idx on messages (creator_id, id) where status = 'pending' and sender = 'fan'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists messages_pending_fan_idx`.execute(db);
  await sql`drop index if exists credit_ledger_ai_answer_day_idx`.execute(db);
  await db.schema.alterTable('chatbots').dropColumn('daily_ai_budget').execute();
}
