import type { Database } from '@fanpilot/db';
import { type Kysely, sql } from 'kysely';
import type { ChunkDraft } from './chunk.ts';
import { vectorLiteral } from './embeddings.ts';

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
}

export type StoreOutcome = 'stored' | 'superseded' | 'gone';

// JSON and text columns refuse NUL characters.
const clean = (s: string) => s.replaceAll('\u0000', '');

/**
 * Replaces the item's chunks and marks it ready, in one transaction: running a job twice leaves one
 * set of chunks, never two. `completed` means full-text indexed; `active` means embedded as well.
 */
export async function storeChunks(db: Kysely<Database>, input: StoreChunksInput): Promise<StoreOutcome> {
  const vectors = input.embeddings && (await hasVectorColumn(db)) ? input.embeddings : null;
  return db.transaction().execute(async (trx) => {
    // Marking the item ready first takes its row lock; a newer run or a deletion leaves nothing to mark.
    let owned = trx
      .updateTable('knowledge_items')
      .set({
        status: vectors ? 'active' : 'completed',
        error: null,
        processed_at: new Date(),
        updated_at: new Date(),
        started_at: null,
        chunk_count: input.chunks.length,
        ...(input.title ? { title: clean(input.title).slice(0, 500) } : {}),
      })
      .where('id', '=', input.itemId);
    if (input.run) {
      const run = input.run;
      owned = owned.where((eb) => eb.or([eb('job_run', '=', run), eb('job_run', 'is', null)]));
    }
    const item = await owned.returning(['chatbot_id']).executeTakeFirst();
    if (!item) {
      const exists = await trx
        .selectFrom('knowledge_items')
        .select('id')
        .where('id', '=', input.itemId)
        .executeTakeFirst();
      return exists ? 'superseded' : 'gone';
    }
    await trx.deleteFrom('chunks').where('knowledge_item_id', '=', input.itemId).execute();
    const rows = input.chunks.map((c, ordinal) => ({
      knowledge_item_id: input.itemId,
      chatbot_id: item.chatbot_id,
      ordinal,
      content: clean(c.content),
      metadata: clean(JSON.stringify(c.metadata)),
      ...(vectors?.[ordinal] ? { embedding: sql`${vectorLiteral(vectors[ordinal])}::vector` } : {}),
    }));
    for (let i = 0; i < rows.length; i += 500) {
      // The embedding column is not in the typed schema: it exists only with pgvector.
      await trx
        .insertInto('chunks')
        .values(rows.slice(i, i + 500) as never)
        .execute();
    }
    return 'stored';
  });
}
