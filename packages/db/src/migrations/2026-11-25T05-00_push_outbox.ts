import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Push follows committed changes (docs/decisions/0028-push-follows-committed-changes.md): a message
 * to a fan (from the creator or the AI) and an announcement the creator chose to push each leave a
 * row in `push_outbox` in the same transaction that stores them, and wake the push role with a
 * NOTIFY on `fp_push`. The background `push` role drains the outbox into push jobs, so no use case
 * or route has to remember to ask for a push, and a push is asked for exactly when the thing it
 * tells about is committed (a rolled-back reply leaves nothing behind).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table push_outbox (
    id bigserial primary key,
    kind text not null check (kind in ('message', 'notice')),
    ref text not null,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create or replace function push_outbox_add() returns trigger language plpgsql as $$
    begin
      insert into push_outbox (kind, ref)
        values (case when tg_table_name = 'messages' then 'message' else 'notice' end, new.id::text);
      perform pg_notify('fp_push', '');
      return null;
    end $$`.execute(db);
  await sql`create trigger messages_push_outbox after insert on messages
    for each row when (new.sender <> 'fan' and new.fan_id is not null)
    execute function push_outbox_add()`.execute(db);
  await sql`create trigger notices_push_outbox after insert on notices
    for each row when (new.push)
    execute function push_outbox_add()`.execute(db);
  await sql`create trigger notices_push_outbox_later after update of push on notices
    for each row when (new.push and not old.push)
    execute function push_outbox_add()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists notices_push_outbox_later on notices`.execute(db);
  await sql`drop trigger if exists notices_push_outbox on notices`.execute(db);
  await sql`drop trigger if exists messages_push_outbox on messages`.execute(db);
  await sql`drop function if exists push_outbox_add()`.execute(db);
  await sql`drop table if exists push_outbox`.execute(db);
}
