import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.
// Knowledge ingestion bookkeeping: which run of the ingest job owns an item, when it started, how many
// chunks it produced, and an index for the sweeper that finds items stuck in processing.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('knowledge_items')
    .addColumn('job_run', 'text')
    .addColumn('started_at', 'timestamptz')
    .addColumn('chunk_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create index knowledge_items_unfinished_idx on knowledge_items (status, updated_at)
    where status in ('pending', 'processing')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists knowledge_items_unfinished_idx`.execute(db);
  await db.schema
    .alterTable('knowledge_items')
    .dropColumn('job_run')
    .dropColumn('started_at')
    .dropColumn('chunk_count')
    .execute();
}
