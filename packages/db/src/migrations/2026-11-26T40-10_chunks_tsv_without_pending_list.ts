import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * The full-text index of chunks writes every entry into its tree at once (`fastupdate = off`)
 * (docs/decisions/0057-retrieval-in-one-statement.md). With fastupdate on, PostgreSQL gathers new
 * entries in a pending list that every search reads through from start to end until VACUUM (or the
 * list passing 4 MB) merges it; embedded PGlite has no autovacuum, so after a few documents every
 * question paid for a scan of up to 4 MB (measured: 461 pages after 100,000 chunks, searches 2-3
 * times slower). Ingestion pays a little more per chunk instead. What is pending now is merged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter index chunks_tsv_idx set (fastupdate = off)`.execute(db);
  await sql`select gin_clean_pending_list('chunks_tsv_idx'::regclass)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter index chunks_tsv_idx reset (fastupdate)`.execute(db);
}
