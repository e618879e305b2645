import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('creators')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('google_sub', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('profile_image_key', 'text')
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('onboarding_complete', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_online', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('status_text', 'text', (c) => c.notNull().defaultTo('Offline - AI responding'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index creators_username_lower_idx on creators (lower(username))`.execute(db);

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('creator_id', 'uuid', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_creator_idx').on('sessions').column('creator_id').execute();

  await db.schema
    .createTable('chatbots')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('creator_id', 'uuid', (c) =>
      c.notNull().unique().references('creators.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('instructions', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('temperature', 'real', (c) => c.notNull().check(sql`temperature >= 0 and temperature <= 1`))
    .addColumn('initial_messages', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('knowledge_items')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('chatbot_id', 'uuid', (c) => c.notNull().references('chatbots.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('youtube', 'url', 'file')`))
    .addColumn('url', 'text')
    .addColumn('youtube_url', 'text')
    .addColumn('file_name', 'text')
    .addColumn('file_key', 'text')
    .addColumn('file_size', 'integer')
    .addColumn('title', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'processing', 'completed', 'active', 'failed')`),
    )
    .addColumn('error', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('processed_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('knowledge_items_chatbot_idx')
    .on('knowledge_items')
    .columns(['chatbot_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('chunks')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('knowledge_item_id', 'uuid', (c) =>
      c.notNull().references('knowledge_items.id').onDelete('cascade'),
    )
    .addColumn('chatbot_id', 'uuid', (c) => c.notNull().references('chatbots.id').onDelete('cascade'))
    .addColumn('ordinal', 'integer', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('tsv', sql`tsvector`, (c) =>
      c.generatedAlwaysAs(sql`to_tsvector('english', content)`).stored(),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('chunks_item_ordinal_uq', ['knowledge_item_id', 'ordinal'])
    .execute();
  await sql`create index chunks_tsv_idx on chunks using gin (tsv)`.execute(db);
  await db.schema.createIndex('chunks_chatbot_idx').on('chunks').column('chatbot_id').execute();

  // Vectors where the extension exists (pgvector, PGlite's bundled one); full-text search works without.
  const available = await sql<{ n: number }>`
    select count(*)::int as n from pg_available_extensions where name = 'vector'`.execute(db);
  if ((available.rows[0]?.n ?? 0) > 0) {
    await sql`create extension if not exists vector`.execute(db);
    await sql`alter table chunks add column embedding vector`.execute(db);
  }

  await db.schema
    .createTable('fans')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('creator_id', 'uuid', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('fan_key', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('cookie_hash', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('fans_creator_key_uq', ['creator_id', 'fan_key'])
    .execute();

  await db.schema
    .createTable('messages')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('creator_id', 'uuid', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('fan_id', 'uuid', (c) => c.references('fans.id').onDelete('cascade'))
    .addColumn('sender', 'text', (c) => c.notNull().check(sql`sender in ('fan', 'creator', 'Creatorai')`))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.check(sql`status is null or status in ('pending', 'answered')`))
    .addColumn('reply_to', 'bigint', (c) => c.references('messages.id').onDelete('set null'))
    .addColumn('fan_name', 'text')
    .addColumn('sources', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('answered_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('messages_creator_time_idx')
    .on('messages')
    .columns(['creator_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('messages_fan_time_idx')
    .on('messages')
    .columns(['fan_id', 'created_at'])
    .execute();
  await sql`create index messages_pending_idx on messages (creator_id) where status = 'pending'`.execute(db);
  // A question gets at most one AI answer, however often its job runs.
  await sql`create unique index messages_one_ai_reply_uq on messages (reply_to) where sender = 'Creatorai'`.execute(
    db,
  );

  await db.schema
    .createTable('file_attachments')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('message_id', 'bigint', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('creator_id', 'uuid', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('original_filename', 'text', (c) => c.notNull())
    .addColumn('file_type', 'text', (c) => c.notNull().check(sql`file_type in ('pdf', 'image', 'other')`))
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('file_size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('file_attachments_message_idx')
    .on('file_attachments')
    .column('message_id')
    .execute();

  await db.schema
    .createTable('notices')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('creator_id', 'uuid', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('sent_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('notices_creator_time_idx')
    .on('notices')
    .columns(['creator_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('templates')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('creator_id', 'uuid', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('templates_creator_idx').on('templates').column('creator_id').execute();

  await db.schema
    .createTable('credit_ledger')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('creator_id', 'uuid', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('delta', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) =>
      c.notNull().check(sql`reason in ('free_grant', 'ai_answer', 'purchase', 'adjustment')`),
    )
    .addColumn('message_id', 'bigint', (c) => c.references('messages.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('credit_ledger_creator_idx')
    .on('credit_ledger')
    .columns(['creator_id', 'created_at'])
    .execute();
  // One charge per AI answer, however often the answering job runs.
  await sql`create unique index credit_ledger_one_charge_uq on credit_ledger (message_id) where reason = 'ai_answer'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'credit_ledger',
    'templates',
    'notices',
    'file_attachments',
    'messages',
    'fans',
    'chunks',
    'knowledge_items',
    'chatbots',
    'sessions',
    'creators',
  ]) {
    await db.schema.dropTable(table).ifExists().cascade().execute();
  }
}
