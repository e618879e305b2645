import type { Kysely } from 'kysely';

// Frozen in time: this file never imports application code.

export async function up(db: Kysely<unknown>): Promise<void> {
  // What the item's chunks were made from (a hash of their text and metadata, and the embedding
  // model or 'text'): a re-sync that finds the same content keeps its chunks instead of re-embedding.
  await db.schema.alterTable('knowledge_items').addColumn('content_hash', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('knowledge_items').dropColumn('content_hash').execute();
}
