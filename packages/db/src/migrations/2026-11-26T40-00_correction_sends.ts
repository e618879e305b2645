import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * A correction sent to the fans who got the wrong answer
 * (docs/decisions/0056-a-correction-reaches-every-fan-who-got-the-wrong-answer.md): one row per
 * correction and fan, the message sent and when. A fan is sent a correction once; once more only
 * when the creator changed it after (its `updated_at` is newer than `sent_at`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table answer_correction_sends (
    correction_id uuid not null references answer_corrections(id) on delete cascade,
    fan_id uuid not null references fans(id) on delete cascade,
    message_id bigint references messages(id) on delete set null,
    sent_at timestamptz not null default now(),
    primary key (correction_id, fan_id)
  )`.execute(db);
  await sql`create index answer_correction_sends_fan_idx on answer_correction_sends (fan_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists answer_correction_sends`.execute(db);
}
