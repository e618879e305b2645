import type { Database } from '@fanpilot/db';
import { type Kysely, sql } from 'kysely';

/** pgvector's HNSW index takes vectors of up to 2,000 dimensions. */
export const HNSW_MAX_DIMENSIONS = 2000;

const ensured = new WeakMap<object, Map<number, Promise<void>>>();

/** The tables with an untyped pgvector `embedding` column: chunks, and long chunks' windows. */
export type VectorTable = 'chunks' | 'chunk_windows';

const indexName = (dimensions: number, table: VectorTable) => `${table}_embedding_hnsw_${dimensions}`;

/**
 * An approximate nearest-neighbour (HNSW, cosine) index for embeddings of one size. The `embedding`
 * column is untyped (the model decides the size), so the index is on the column cast to that size,
 * partial to the rows of that size; retrieval queries the same expression (`typedEmbedding`). Made
 * once per size, when the first embeddings of that size are stored, concurrently so ingestion and
 * fans' questions are not blocked while it builds. Sizes past pgvector's limit stay exact (a scan).
 * The windows of long chunks (`chunk_windows`, record 0090) have their own, on the same expression.
 */
export function ensureVectorIndex(
  db: Kysely<Database>,
  dimensions: number,
  table: VectorTable = 'chunks',
): Promise<void> {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > HNSW_MAX_DIMENSIONS) {
    return Promise.resolve();
  }
  let sizes = ensured.get(db);
  if (!sizes) {
    sizes = new Map();
    ensured.set(db, sizes);
  }
  const key = table === 'chunks' ? dimensions : -dimensions;
  let done = sizes.get(key);
  if (!done) {
    done =
      sql`create index concurrently if not exists ${sql.id(indexName(dimensions, table))} on ${sql.id(table)}
        using hnsw ((embedding::vector(${sql.lit(dimensions)})) vector_cosine_ops)
        where vector_dims(embedding) = ${sql.lit(dimensions)}`
        .execute(db)
        .then(() => undefined);
    done.catch(() => sizes.delete(key));
    sizes.set(key, done);
  }
  return done;
}

/** The embedding column cast to one size: the expression the HNSW index of that size is built on. */
export const typedEmbedding = (dimensions: number) => sql`embedding::vector(${sql.lit(dimensions)})`;

/** A vector as pgvector's text form; non-finite numbers become 0. */
export const vectorLiteral = (v: number[]) => `[${v.map((x) => (Number.isFinite(x) ? x : 0)).join(',')}]`;

/**
 * Refreshes the statistics retrieval reads to tell a library's common words from its telling ones
 * (packages/knowledge/src/retrieve.ts): PGlite has no autovacuum to do it.
 */
export async function refreshChunkStatistics(db: Kysely<Database>): Promise<void> {
  await sql`analyze chunks`.execute(db);
}
