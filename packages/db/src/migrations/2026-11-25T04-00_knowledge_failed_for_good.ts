import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Whether a failed knowledge source failed for good (refused by the network rules, not found,
 * disallowed by robots.txt, not a readable document): the dashboard offers no Retry for it
 * (issue 29; docs/decisions/0041-web-knowledge-a-creator-expects.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table knowledge_items add column failed_for_good boolean not null default false`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table knowledge_items drop column if exists failed_for_good`.execute(db);
}
