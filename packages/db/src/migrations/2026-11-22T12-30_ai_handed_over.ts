import type { Kysely } from 'kysely';

// Frozen in time: this file never imports application code.

export async function up(db: Kysely<unknown>): Promise<void> {
  // When the AI's tries at a fan question ran out (the model kept failing for the whole retry
  // budget): from then on the question is the creator's, and the fan is told so.
  await db.schema.alterTable('messages').addColumn('ai_handed_over_at', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').dropColumn('ai_handed_over_at').execute();
}
