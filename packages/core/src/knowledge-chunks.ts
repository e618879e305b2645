import type { Database } from '@fanpilot/db';
import { type Kysely, sql } from 'kysely';
import { ensureVectorIndex, vectorLiteral } from './vector-index.ts';

/** A chunk of an item's text as it is stored: its text and where in the source it stands. */
export interface ChunkDraft {
  content: string;
  metadata: Record<string, unknown>;
}

const vectorColumn = new WeakMap<object, Promise<boolean>>();

/** Whether chunks has the pgvector `embedding` column (PGlite and pgvector servers; not plain PostgreSQL). */
export function hasVectorColumn(db: Kysely<Database>): Promise<boolean> {
  let known = vectorColumn.get(db);
  if (!known) {
    known = sql<{ n: number }>`
      select count(*)::int as n from information_schema.columns
      where table_name = 'chunks' and column_name = 'embedding'`
      .execute(db)
      .then((r) => (r.rows[0]?.n ?? 0) > 0);
    known.catch(() => vectorColumn.delete(db));
    vectorColumn.set(db, known);
  }
  return known;
}

export interface StoreChunksInput {
  itemId: string;
  /** The run that produced the chunks; the write is dropped when a newer run owns the item. */
  run: string | null;
  chunks: ChunkDraft[];
  embeddings: number[][] | null;
  title: string | null;
  /** What the chunks were made from (see the ingest handler); kept so a re-sync can skip work. */
  contentHash?: string | null;
}

export type StoreOutcome = 'stored' | 'superseded' | 'gone';

// JSON and text columns refuse NUL characters.
const clean = (s: string) => s.replaceAll('\u0000', '');

/**
 * Replaces the item's chunks and marks it ready, atomically: running a job twice leaves one set of
 * chunks, never two. `completed` means full-text indexed; `active` means embedded as well.
 *
 * One statement, one round trip: marking the item ready (which takes its row lock, and matches
 * nothing when a newer run owns the item or it was deleted), deleting its old chunks and inserting
 * the new ones, all rows passed as one JSON parameter. The insert reads the delete's count, so the
 * old chunks are gone before the first new one goes in (the unique (item, ordinal) key holds).
 */
export async function storeChunks(db: Kysely<Database>, input: StoreChunksInput): Promise<StoreOutcome> {
  const vectors = input.embeddings && (await hasVectorColumn(db)) ? input.embeddings : null;
  // Without the index search still works (an exact scan), so a failed build only costs speed.
  if (vectors?.[0]) await ensureVectorIndex(db, vectors[0].length).catch(() => {});
  const rows = input.chunks.map((c, ordinal) => ({
    ordinal,
    content: clean(c.content),
    metadata: c.metadata,
    ...(vectors?.[ordinal] ? { embedding: vectorLiteral(vectors[ordinal]) } : {}),
  }));
  const now = new Date();
  const title = input.title ? sql`, title = ${clean(input.title).slice(0, 500)}` : sql``;
  const hash = sql`, content_hash = ${input.contentHash ?? null}`;
  const run = input.run;
  const owner = run ? sql` and (job_run = ${run} or job_run is null)` : sql``;
  // The embedding column is not in the typed schema: it exists only with pgvector.
  const embeddingColumn = vectors ? sql`, embedding` : sql``;
  const embeddingValue = vectors ? sql`, r.embedding::vector` : sql``;
  const result = await sql<{ owned: number; added: number }>`
    with owned as (
      update knowledge_items
      set status = ${vectors ? 'active' : 'completed'}, error = null, processed_at = ${now},
        updated_at = ${now}, started_at = null, chunk_count = ${input.chunks.length}${title}${hash}
      where id = ${input.itemId}${owner}
      returning id, chatbot_id
    ), cleared as (
      delete from chunks where knowledge_item_id in (select id from owned) returning 1
    ), added as (
      insert into chunks (knowledge_item_id, chatbot_id, ordinal, content, metadata${embeddingColumn})
      select o.id, o.chatbot_id, r.ordinal, r.content, r.metadata${embeddingValue}
      from owned o
      cross join (select count(*) as n from cleared) c
      cross join json_to_recordset(${JSON.stringify(rows)}::json)
        as r(ordinal int, content text, metadata jsonb, embedding text)
      returning 1
    )
    select (select count(*) from owned)::int as owned, (select count(*) from added)::int as added`.execute(
    db,
  );
  if ((result.rows[0]?.owned ?? 0) > 0) return 'stored';
  const exists = await db
    .selectFrom('knowledge_items')
    .select('id')
    .where('id', '=', input.itemId)
    .executeTakeFirst();
  return exists ? 'superseded' : 'gone';
}
