import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * A creator's files are theirs: fans read the passages the AI cites from a file, and download the
 * whole file only where the creator allowed it, per file (docs/decisions/0019-a-creator-s-files-are-theirs.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table knowledge_items add column fans_may_download boolean not null default false`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table knowledge_items drop column if exists fans_may_download`.execute(db);
}
