import { type Kysely, sql } from 'kysely';

// Per-fan memory (docs/decisions/0079): the durable facts a fan shared with one creator's chat
// (goal, level, constraints, preferences, the name they go by), each with the message it came from.
// A memory belongs to the fan row (one fan of one creator): it moves with the conversation (a
// transfer or a restore rebinds the row) and is deleted with it (the cascade).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fan_memory')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('fan_id', 'uuid', (c) => c.notNull().references('fans.id').onDelete('cascade'))
    .addColumn('creator_id', 'uuid', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull().check(sql`char_length(body) between 1 and 200`))
    .addColumn('source_message_id', 'bigint', (c) => c.references('messages.id').onDelete('set null'))
    .addColumn('corrected_by_creator', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('fan_memory_fan_idx')
    .on('fan_memory')
    .columns(['fan_id', 'created_at'])
    .execute();
  // The fan turned memory off: nothing is kept. `memory_through`: the last fan message extracted.
  await db.schema
    .alterTable('fans')
    .addColumn('memory_off', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema.alterTable('fans').addColumn('memory_through', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('fans').dropColumn('memory_through').execute();
  await db.schema.alterTable('fans').dropColumn('memory_off').execute();
  await db.schema.dropTable('fan_memory').ifExists().execute();
}
