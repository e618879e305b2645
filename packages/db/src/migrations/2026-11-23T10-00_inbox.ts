import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * A fan's conversation counters live on the fan's row, kept by a trigger on messages, so every
 * writer (the api, the worker, a script) keeps them right and the inbox reads a few rows instead of
 * aggregating every message: Chat Management pages by last activity, counts waiting fans and fans
 * active today from indexes at 10,000 fans and 200,000 messages.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table fans
    add column message_count integer not null default 0,
    add column pending_count integer not null default 0,
    add column last_message_at timestamptz,
    add column last_fan_message_at timestamptz,
    add column last_activity_at timestamptz`.execute(db);

  await sql`update fans f set
      message_count = s.message_count,
      pending_count = s.pending_count,
      last_message_at = s.last_message_at,
      last_fan_message_at = s.last_fan_message_at
    from (
      select fan_id,
        count(*)::int as message_count,
        (count(*) filter (where status = 'pending'))::int as pending_count,
        max(created_at) as last_message_at,
        max(created_at) filter (where sender = 'fan') as last_fan_message_at
      from messages where fan_id is not null group by fan_id
    ) s
    where s.fan_id = f.id`.execute(db);
  await sql`update fans set last_activity_at = coalesce(last_message_at, created_at)`.execute(db);
  await sql`alter table fans alter column last_activity_at set not null,
    alter column last_activity_at set default now()`.execute(db);

  await sql`create function fans_track_messages() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        if new.fan_id is not null then
          update fans set
            message_count = message_count + 1,
            pending_count = pending_count + (case when new.status = 'pending' then 1 else 0 end),
            last_message_at = greatest(last_message_at, new.created_at),
            last_fan_message_at = case when new.sender = 'fan'
              then greatest(last_fan_message_at, new.created_at) else last_fan_message_at end,
            last_activity_at = greatest(last_activity_at, new.created_at)
          where id = new.fan_id;
        end if;
      elsif tg_op = 'UPDATE' then
        if old.fan_id is not null and (old.status = 'pending') then
          update fans set pending_count = pending_count - 1 where id = old.fan_id;
        end if;
        if new.fan_id is not null and (new.status = 'pending') then
          update fans set pending_count = pending_count + 1 where id = new.fan_id;
        end if;
        if new.fan_id is distinct from old.fan_id then
          update fans set message_count = message_count - 1 where id = old.fan_id;
          update fans set message_count = message_count + 1 where id = new.fan_id;
        end if;
      elsif tg_op = 'DELETE' then
        if old.fan_id is not null then
          update fans set
            message_count = message_count - 1,
            pending_count = pending_count - (case when old.status = 'pending' then 1 else 0 end)
          where id = old.fan_id;
        end if;
      end if;
      return null;
    end
  $$`.execute(db);
  await sql`create trigger messages_track_fans_insert after insert on messages
    for each row execute function fans_track_messages()`.execute(db);
  await sql`create trigger messages_track_fans_update after update of status, fan_id on messages
    for each row when (old.status is distinct from new.status or old.fan_id is distinct from new.fan_id)
    execute function fans_track_messages()`.execute(db);
  await sql`create trigger messages_track_fans_delete after delete on messages
    for each row execute function fans_track_messages()`.execute(db);

  // Chat Management: a creator's fans by last activity (keyset pages), the waiting ones, today's.
  await sql`create index fans_activity_idx on fans (creator_id, last_activity_at desc, id desc)`.execute(db);
  await sql`create index fans_waiting_idx on fans (creator_id, last_activity_at desc, id desc)
    where pending_count > 0`.execute(db);
  await sql`create index fans_last_fan_message_idx on fans (creator_id, last_fan_message_at)`.execute(db);
  // A conversation newest first, in keyset pages; today's replies of a creator.
  await sql`create index messages_fan_page_idx on messages (fan_id, created_at desc, id desc)`.execute(db);
  await sql`create index messages_creator_replies_idx on messages (creator_id, created_at)
    where sender <> 'fan'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists messages_creator_replies_idx`.execute(db);
  await sql`drop index if exists messages_fan_page_idx`.execute(db);
  await sql`drop trigger if exists messages_track_fans_insert on messages`.execute(db);
  await sql`drop trigger if exists messages_track_fans_update on messages`.execute(db);
  await sql`drop trigger if exists messages_track_fans_delete on messages`.execute(db);
  await sql`drop function if exists fans_track_messages()`.execute(db);
  await sql`alter table fans drop column message_count, drop column pending_count,
    drop column last_message_at, drop column last_fan_message_at, drop column last_activity_at`.execute(db);
}
