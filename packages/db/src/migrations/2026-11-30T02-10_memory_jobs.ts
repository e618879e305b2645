import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * The fan's memory reads a turn once it is answered (docs/decisions/0079): an AI answer or the
 * creator's message to a fan asks for the `fan-memory` job in the statement that stores it, through
 * the one job outbox (docs/decisions/0077), whichever use case wrote it. One job per fan and message
 * (its key); the job decides whether there is anything to read (memory on, a model, unread turns).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace function message_memory_job() returns trigger language plpgsql as $$
    begin
      insert into job_outbox (name, payload, job_key)
        values ('fan-memory',
          jsonb_build_object('conversationId', new.fan_id::text, 'messageId', new.id::text),
          'memory-' || new.fan_id::text || '-' || new.id::text)
        on conflict (name, job_key) where job_key is not null do nothing;
      perform pg_notify('fp_jobs', '');
      return null;
    end $$`.execute(db);
  await sql`create trigger messages_memory_job after insert on messages
    for each row when (new.fan_id is not null and new.sender in ('creator', 'Creatorai'))
    execute function message_memory_job()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists messages_memory_job on messages`.execute(db);
  await sql`drop function if exists message_memory_job()`.execute(db);
}
