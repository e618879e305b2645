import { type Kysely, sql } from 'kysely';

// The website widget asks which of a creator's conversations its browser holds (its partitioned
// fan cookie's hash) each time the chat opens, and moves an old loader's conversations to that
// cookie once (record 0072): this index finds them without reading all the creator's fans.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index fans_creator_cookie_idx on fans (creator_id, cookie_hash)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists fans_creator_cookie_idx`.execute(db);
}
