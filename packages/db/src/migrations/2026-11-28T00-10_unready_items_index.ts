import { type Kysely, sql } from 'kysely';

// Retrieval keeps only chunks whose item is ready ('completed' or 'active'). It now asks for the
// chatbot's items that are not ready (almost always none) instead of joining every ready item: this
// index finds those few without reading the chatbot's whole library (record 0064).

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index knowledge_items_unready_idx on knowledge_items (chatbot_id)
    where status not in ('completed', 'active')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists knowledge_items_unready_idx`.execute(db);
}
