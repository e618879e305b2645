import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

export async function up(db: Kysely<unknown>): Promise<void> {
  // A fan's own chat page reads its history by fan id alone, across creators.
  await db.schema.createIndex('fans_fan_key_idx').on('fans').column('fan_key').execute();
  // Replies are found by the question they answer.
  await db.schema.createIndex('messages_reply_to_idx').on('messages').column('reply_to').execute();
  // A fan message carries at most one attachment.
  await sql`create unique index file_attachments_one_per_message_uq on file_attachments (message_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists file_attachments_one_per_message_uq`.execute(db);
  await sql`drop index if exists messages_reply_to_idx`.execute(db);
  await sql`drop index if exists fans_fan_key_idx`.execute(db);
}
