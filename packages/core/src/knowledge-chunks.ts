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
  /**
   * The vectors of each chunk's windows (record 0090; same order as `chunks`, none for a short
   * chunk), made by the embedder of `embeddings`; stored only with them. Given (even empty), the item
   * is marked `windowed`.
   */
  windows?: (number[][] | null | undefined)[] | null;
  title: string | null;
  /** What the chunks were made from (see the ingest handler); kept so a re-sync can skip work. */
  contentHash?: string | null;
}

export type StoreOutcome = 'stored' | 'superseded' | 'gone';

// JSON and text columns refuse NUL characters.
const clean = (s: string) => s.replaceAll('\u0000', '');

/**
 * Chunks written per statement; between statements the event loop serves requests. On embedded
 * PGlite (which runs on the calling thread) a statement of 200 chunks of 1,000 characters, with its
 * full-text index, held the thread for about 100 ms; 25 keep it near 10 ms on an idle machine.
 */
export const STORE_BATCH_SIZE = 25;

/** Lets the event loop run (timers, sockets, other queries) before the next batch. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface StoreChunksOptions {
  /** Chunks per statement (default STORE_BATCH_SIZE). */
  batchSize?: number;
  /** Called between batches; defaults to yielding to the event loop once. */
  pause?: () => Promise<void>;
}

/**
 * Replaces the item's chunks and marks it ready: running a job twice leaves one set of chunks, never
 * two. `completed` means full-text indexed; `active` means embedded as well.
 *
 * A source of at most one batch is written in one statement (marking the item ready, deleting its
 * old chunks and inserting the new ones). A larger one (a 4,000-page PDF is some 10,000 chunks) is
 * written in bounded batches with the event loop free between them, so an api that runs ingestion
 * in-process (embedded PGlite runs on its thread) keeps answering: its old chunks are deleted and
 * the new ones inserted batch by batch while the item is still `processing` (search reads only
 * ready items), then the item is marked ready once it holds exactly the chunks written. Every batch
 * names the run: once a newer run owns the item, the remaining batches write nothing and the newer
 * run's own delete clears what this one left.
 */
export async function storeChunks(
  db: Kysely<Database>,
  input: StoreChunksInput,
  options: StoreChunksOptions = {},
): Promise<StoreOutcome> {
  const batchSize = Math.max(1, options.batchSize ?? STORE_BATCH_SIZE);
  const pause = options.pause ?? yieldToEventLoop;
  const vectors = input.embeddings && (await hasVectorColumn(db)) ? input.embeddings : null;
  // Without the index search still works (an exact scan), so a failed build only costs speed.
  if (vectors?.[0]) await ensureVectorIndex(db, vectors[0].length).catch(() => {});
  const rowsOf = (from: number, to: number) =>
    input.chunks.slice(from, to).map((c, i) => ({
      ordinal: from + i,
      content: clean(c.content),
      metadata: c.metadata,
      ...(vectors?.[from + i] ? { embedding: vectorLiteral(vectors[from + i]!) } : {}),
    }));
  const windows = vectors && input.windows ? input.windows : null;
  if (windows) {
    const size = windows.find((w) => w?.[0])?.[0]?.length;
    if (size) await ensureVectorIndex(db, size, 'chunk_windows').catch(() => {});
  }
  // A batch's windows, inserted by the statement that inserts its chunks (`added` returns their ids).
  const windowsOf = (from: number, to: number) => {
    if (!windows) return sql``;
    const rows = windows
      .slice(from, to)
      .flatMap((w, i) =>
        (w ?? []).map((v, k) => ({ chunk: from + i, ordinal: k, embedding: vectorLiteral(v) })),
      );
    if (rows.length === 0) return sql``;
    return sql`, windowed as (
        insert into chunk_windows (chunk_id, chatbot_id, ordinal, embedding)
        select a.id, a.chatbot_id, w.ordinal, w.embedding::vector
        from added a
        join json_to_recordset(${JSON.stringify(rows)}::json) as w(chunk int, ordinal int, embedding text)
          on w.chunk = a.ordinal
        returning 1
      )`;
  };
  const now = new Date();
  const title = input.title ? sql`, title = ${clean(input.title).slice(0, 500)}` : sql``;
  const hash = sql`, content_hash = ${input.contentHash ?? null}`;
  const run = input.run;
  const owner = run ? sql` and (job_run = ${run} or job_run is null)` : sql``;
  const ready = sql`status = ${vectors ? 'active' : 'completed'}, error = null, processed_at = ${now},
        updated_at = ${now}, started_at = null, chunk_count = ${input.chunks.length},
        windowed = ${windows !== null}${title}${hash}`;
  // The embedding column is not in the typed schema: it exists only with pgvector.
  const embeddingColumn = vectors ? sql`, embedding` : sql``;
  const embeddingValue = vectors ? sql`, r.embedding::vector` : sql``;
  const outcome = async (): Promise<StoreOutcome> => {
    const exists = await db
      .selectFrom('knowledge_items')
      .select('id')
      .where('id', '=', input.itemId)
      .executeTakeFirst();
    return exists ? 'superseded' : 'gone';
  };

  if (input.chunks.length <= batchSize) {
    const result = await sql<{ owned: number; added: number }>`
      with owned as (
        update knowledge_items
        set ${ready}
        where id = ${input.itemId}${owner}
        returning id, chatbot_id
      ), cleared as (
        delete from chunks where knowledge_item_id in (select id from owned) returning 1
      ), added as (
        insert into chunks (knowledge_item_id, chatbot_id, ordinal, content, metadata${embeddingColumn})
        select o.id, o.chatbot_id, r.ordinal, r.content, r.metadata${embeddingValue}
        from owned o
        cross join (select count(*) as n from cleared) c
        cross join json_to_recordset(${JSON.stringify(rowsOf(0, input.chunks.length))}::json)
          as r(ordinal int, content text, metadata jsonb, embedding text)
        returning id, chatbot_id, ordinal
      )${windowsOf(0, input.chunks.length)}
      select (select count(*) from owned)::int as owned, (select count(*) from added)::int as added`.execute(
      db,
    );
    return (result.rows[0]?.owned ?? 0) > 0 ? 'stored' : outcome();
  }

  // The item, locked against a claim by a newer run while one statement writes for this run.
  const mine = sql`select id, chatbot_id from knowledge_items where id = ${input.itemId}${owner} for share`;
  // Old chunks first, a batch at a time, while the run still owns the item.
  for (;;) {
    const cleared = await sql<{ n: number }>`
      with gone as (
        delete from chunks where id in (
          select c.id from chunks c join (${mine}) o on o.id = c.knowledge_item_id limit ${batchSize * 5}
        ) returning 1
      ) select count(*)::int as n from gone`.execute(db);
    if ((cleared.rows[0]?.n ?? 0) === 0) break;
    await pause();
  }
  for (let from = 0; from < input.chunks.length; from += batchSize) {
    const rows = rowsOf(from, from + batchSize);
    const added = await sql<{ n: number }>`
      with added as (
        insert into chunks (knowledge_item_id, chatbot_id, ordinal, content, metadata${embeddingColumn})
        select o.id, o.chatbot_id, r.ordinal, r.content, r.metadata${embeddingValue}
        from (${mine}) o
        cross join json_to_recordset(${JSON.stringify(rows)}::json)
          as r(ordinal int, content text, metadata jsonb, embedding text)
        returning id, chatbot_id, ordinal
      )${windowsOf(from, from + batchSize)} select count(*)::int as n from added`.execute(db);
    // Nothing written: a newer run owns the item, or it was deleted.
    if ((added.rows[0]?.n ?? 0) < rows.length) return outcome();
    await pause();
  }
  // Ready only while still this run's and holding exactly the chunks written.
  const marked = await sql<{ id: string }>`
    update knowledge_items set ${ready}
    where id = ${input.itemId}${owner}
      and (select count(*) from chunks where knowledge_item_id = ${input.itemId}) = ${input.chunks.length}
    returning id`.execute(db);
  return marked.rows.length > 0 ? 'stored' : outcome();
}

/**
 * Replaces a ready item's vectors with those of another embedder (`embedderId`), in one transaction
 * and only while the item is still the one read (`readHash`, its content hash then): a re-sync or a
 * delete meanwhile wins and nothing is written. The item's hash records the new embedder
 * (`<digest>:<embedderId>`) and it becomes `active`. Returns whether it was written.
 */
export async function replaceItemVectors(
  db: Kysely<Database>,
  input: {
    itemId: string;
    readHash: string | null;
    embedderId: string;
    vectors: { chunkId: string; vector: number[] }[];
    /** Each long chunk's window vectors by the same embedder (record 0090); the old ones go either way. */
    windows?: { chunkId: string; vectors: number[][] }[];
  },
): Promise<boolean> {
  const digest = input.readHash?.split(':')[0] || 'reembedded';
  return db.transaction().execute(async (trx) => {
    const still = await trx
      .updateTable('knowledge_items')
      .set({
        content_hash: `${digest}:${input.embedderId}`,
        status: 'active',
        windowed: input.windows !== undefined,
      })
      .where('id', '=', input.itemId)
      .where('status', 'in', ['completed', 'active'])
      .where((eb) =>
        input.readHash === null ? eb('content_hash', 'is', null) : eb('content_hash', '=', input.readHash),
      )
      .executeTakeFirst();
    if (Number(still.numUpdatedRows) === 0) return false;
    for (let i = 0; i < input.vectors.length; i += 100) {
      const part = input.vectors.slice(i, i + 100);
      await sql`update chunks set embedding = v.embedding::vector
        from (values ${sql.join(part.map((r) => sql`(${r.chunkId}::bigint, ${vectorLiteral(r.vector)})`))}) as v(id, embedding)
        where chunks.id = v.id and chunks.knowledge_item_id = ${input.itemId}`.execute(trx);
    }
    await sql`delete from chunk_windows where chunk_id in (
        select id from chunks where knowledge_item_id = ${input.itemId})`.execute(trx);
    const windows = (input.windows ?? []).flatMap((w) =>
      w.vectors.map((v, k) => sql`(${w.chunkId}::bigint, ${k}::int, ${vectorLiteral(v)})`),
    );
    for (let i = 0; i < windows.length; i += 200) {
      await sql`insert into chunk_windows (chunk_id, chatbot_id, ordinal, embedding)
        select c.id, c.chatbot_id, v.ordinal, v.embedding::vector
        from (values ${sql.join(windows.slice(i, i + 200))}) as v(id, ordinal, embedding)
        join chunks c on c.id = v.id and c.knowledge_item_id = ${input.itemId}`.execute(trx);
    }
    return true;
  });
}
