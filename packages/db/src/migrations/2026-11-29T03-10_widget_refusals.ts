import { type Kysely, sql } from 'kysely';

// The sites whose pages asked for a creator's widget and were refused (not on the creator's list):
// the loader there shows nothing, so Profile Settings tells the creator instead (issue 36). At most
// a few per creator (core keeps the newest five), one row per site.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('widget_refusals')
    .addColumn('creator_id', 'uuid', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('site', 'text', (c) => c.notNull())
    .addColumn('last_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('widget_refusals_pkey', ['creator_id', 'site'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('widget_refusals').ifExists().execute();
}
