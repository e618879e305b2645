import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * A knowledge file's download epoch (record 0071): raised each time the creator switches its
 * downloads off, and signed into every download link, so a link issued before a switch-off stays
 * dead when downloads are switched on again within its few minutes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table knowledge_items add column download_epoch integer not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table knowledge_items drop column if exists download_epoch`.execute(db);
}
