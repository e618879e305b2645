import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * The creator corrects an AI answer, and fans rate the AI's answers
 * (docs/decisions/0036-try-and-correct-the-chatbot.md, 0037-fans-rate-answers.md).
 *
 * - answer_corrections: the creator's own answer to a question, one per creator and normalised
 *   question (a new correction of the same question replaces the old). `embedding` is the question's
 *   vector from the embedder configured when it was written (null without one), compared in memory
 *   at answer time: a creator has tens of corrections, not millions. The change feed's default
 *   branch notes them on the creator's inbox scope.
 * - messages.fan_rating: the fan's thumbs up or down on an AI answer, with an optional comment; on
 *   the message row, so one rating per answer comes for free and the change feed carries it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table answer_corrections (
    id uuid primary key default gen_random_uuid(),
    creator_id uuid not null references creators(id) on delete cascade,
    question text not null,
    normalized text not null,
    answer text not null,
    embedding jsonb,
    embedding_model text,
    corrected_message_id bigint references messages(id) on delete set null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`.execute(db);
  await sql`create unique index answer_corrections_question_idx on answer_corrections (creator_id, normalized)`.execute(
    db,
  );
  await sql`create trigger answer_corrections_changes after insert or update or delete on answer_corrections
    for each row execute function changes_track()`.execute(db);

  await sql`alter table messages
    add column fan_rating text check (fan_rating in ('up', 'down')),
    add column fan_rating_comment text,
    add column fan_rated_at timestamptz`.execute(db);
  await sql`create index messages_poor_ratings_idx on messages (creator_id, fan_rated_at desc)
    where fan_rating = 'down'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists messages_poor_ratings_idx`.execute(db);
  await sql`alter table messages drop column if exists fan_rating,
    drop column if exists fan_rating_comment, drop column if exists fan_rated_at`.execute(db);
  await sql`drop table if exists answer_corrections`.execute(db);
}
