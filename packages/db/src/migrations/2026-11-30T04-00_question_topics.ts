import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Insights' topics (docs/decisions/0081-insights-topics-and-charts.md): fans' questions grouped by
 * meaning, incrementally. Each question is assigned once to the nearest group's centroid (or starts
 * a group) after it was asked, off the fans' answer path; a creator's cursor says how far grouping
 * got. A group keeps its centroid (a unit vector, number[] as jsonb), the embedder that made it,
 * its key words (word -> questions) and a label (the model's, or the key words').
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table question_topics (
    id bigint generated always as identity primary key,
    creator_id uuid not null references creators(id) on delete cascade,
    label text not null,
    named_by text not null default 'keywords',
    keywords jsonb not null default '{}'::jsonb,
    centroid jsonb not null,
    embedder text not null,
    size integer not null default 0,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index question_topics_creator_idx on question_topics (creator_id)`.execute(db);
  await sql`create table question_topic_members (
    message_id bigint primary key references messages(id) on delete cascade,
    creator_id uuid not null references creators(id) on delete cascade,
    topic_id bigint not null references question_topics(id) on delete cascade,
    asked_at timestamptz not null
  )`.execute(db);
  await sql`create index question_topic_members_time_idx on question_topic_members (creator_id, asked_at, topic_id)`.execute(
    db,
  );
  await sql`create index question_topic_members_topic_idx on question_topic_members (topic_id, asked_at desc)`.execute(
    db,
  );
  await sql`create table question_topic_cursors (
    creator_id uuid primary key references creators(id) on delete cascade,
    last_message_id bigint not null default 0,
    embedder text,
    updated_at timestamptz not null default now()
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists question_topic_cursors`.execute(db);
  await sql`drop table if exists question_topic_members`.execute(db);
  await sql`drop table if exists question_topics`.execute(db);
}
