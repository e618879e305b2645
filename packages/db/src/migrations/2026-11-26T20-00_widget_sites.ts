import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * The website widget (issue 28; docs/decisions/0050-the-website-widget.md): each creator's widget
 * settings (the sites allowed to embed it, its colour, position and launcher text), and the site a
 * fan's conversation began on, shown in the inbox.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('widget_settings')
    .addColumn('creator_id', 'uuid', (c) => c.primaryKey().references('creators.id').onDelete('cascade'))
    .addColumn('sites', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('position', 'text', (c) => c.notNull())
    .addColumn('launcher_text', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`alter table fans add column widget_site text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table fans drop column if exists widget_site`.execute(db);
  await db.schema.dropTable('widget_settings').ifExists().execute();
}
