import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Vectors of a long chunk's two-sentence windows (issue 37, docs/decisions/0090): one vector per
 * 1,000-character chunk blurs its sentences, so retrieval's first stage also searches these and finds
 * a chunk by its best window. A window belongs to its chunk (deleted with it) and to the chunk's
 * chatbot (every search names it, as chunks' does). Only the window's place is kept, not its text
 * (the chunk holds it). The `embedding` column exists where pgvector does (PGlite's bundled one, a
 * pgvector server), as on chunks; plain PostgreSQL gets the table without it and never fills it.
 * `knowledge_items.windowed` says an item's windows were embedded with its chunks: the re-embed sweep
 * adds them to the active items stored before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table knowledge_items add column windowed boolean not null default false`.execute(db);
  await sql`create table chunk_windows (
    id bigint generated always as identity primary key,
    chunk_id bigint not null references chunks(id) on delete cascade,
    chatbot_id uuid not null references chatbots(id) on delete cascade,
    ordinal integer not null
  )`.execute(db);
  await sql`create index chunk_windows_chunk_idx on chunk_windows (chunk_id)`.execute(db);
  await sql`create index chunk_windows_chatbot_idx on chunk_windows (chatbot_id)`.execute(db);

  // Vectors where the extension exists (pgvector, PGlite's bundled one); full-text search works without.
  const available = await sql<{ n: number }>`
    select count(*)::int as n from pg_available_extensions where name = 'vector'`.execute(db);
  if ((available.rows[0]?.n ?? 0) > 0) {
    await sql`create extension if not exists vector`.execute(db);
    await sql`alter table chunk_windows add column embedding vector`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists chunk_windows`.execute(db);
  await sql`alter table knowledge_items drop column if exists windowed`.execute(db);
}
