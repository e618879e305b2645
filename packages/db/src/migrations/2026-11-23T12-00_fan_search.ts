import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Chat Management finds fans by part of their name: a trigram index answers `name ilike '%…%'`
 * from the index instead of reading every one of a creator's fans (12 ms at 10,000 fans).
 * pg_trgm is a trusted extension: the database owner may create it without being a superuser.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create index fans_name_trgm_idx on fans using gin (name gin_trgm_ops)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists fans_name_trgm_idx`.execute(db);
}
