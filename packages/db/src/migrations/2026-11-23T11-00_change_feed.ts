import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * The change feed: every write to a table the dashboard or a fan's chat reads bumps a version and
 * announces it (NOTIFY fp_changes) when its transaction commits, whoever wrote it (an api, a
 * worker, a script). The api answers unchanged polls with 304 from these versions, drops cached
 * sessions and fans when they change, and pushes the announcements to open event streams.
 *
 * Scopes: 'c' a creator's inbox (anything of theirs the dashboard shows), 'p' a creator's public
 * face (profile, status, notice, chatbot, whether the AI can answer), 'f' a fan's conversation,
 * 's' a session. A version is the value of one sequence, so it never repeats.
 * Payload: scope:id:version:table[:fan id].
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence change_seq`.execute(db);
  await sql`create table change_versions (
    scope char(1) not null,
    id text not null,
    version bigint not null,
    primary key (scope, id)
  )`.execute(db);
  await sql`create function note_change(scope_ char, id_ text, table_ text, fan_ text default null)
    returns void language plpgsql as $$
    declare v bigint;
    begin
      if id_ is null then return; end if;
      insert into change_versions as c (scope, id, version) values (scope_, id_, nextval('change_seq'))
        on conflict (scope, id) do update set version = excluded.version
        returning c.version into v;
      perform pg_notify('fp_changes', scope_ || ':' || id_ || ':' || v || ':' || table_ || coalesce(':' || fan_, ''));
    end
  $$`.execute(db);

  await sql`create function changes_track() returns trigger language plpgsql as $$
    declare
      r record;
      creator_ uuid;
    begin
      if tg_op = 'DELETE' then r := old; else r := new; end if;
      case tg_table_name
        when 'messages' then
          perform note_change('c', r.creator_id::text, tg_table_name, r.fan_id::text);
          perform note_change('f', r.fan_id::text, tg_table_name);
        when 'fans' then
          perform note_change('c', r.creator_id::text, tg_table_name, r.id::text);
          perform note_change('f', r.id::text, tg_table_name);
        when 'creators' then
          perform note_change('c', r.id::text, tg_table_name);
          perform note_change('p', r.id::text, tg_table_name);
        when 'chatbots', 'notices' then
          perform note_change('c', r.creator_id::text, tg_table_name);
          perform note_change('p', r.creator_id::text, tg_table_name);
        when 'knowledge_items' then
          select creator_id into creator_ from chatbots where id = r.chatbot_id;
          perform note_change('c', creator_::text, tg_table_name);
        when 'credit_totals' then
          perform note_change('c', r.creator_id::text, tg_table_name);
          -- Whether the AI can answer at all changes only when the balance crosses one answer's price.
          if tg_op <> 'UPDATE' or ((old.balance >= 1) is distinct from (new.balance >= 1)) then
            perform note_change('p', r.creator_id::text, tg_table_name);
          end if;
        when 'credit_ledger' then
          -- The day's AI answer budget reached: the AI stops answering until midnight UTC.
          if r.reason = 'ai_answer' and (
            select count(*) from credit_ledger l
            where l.creator_id = r.creator_id and l.reason = 'ai_answer'
              and l.created_at >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'
          ) >= coalesce((select daily_ai_budget from chatbots where creator_id = r.creator_id), 2147483647) then
            perform note_change('p', r.creator_id::text, tg_table_name);
          end if;
        when 'sessions' then
          perform note_change('s', r.id::text, tg_table_name);
        else
          perform note_change('c', r.creator_id::text, tg_table_name);
      end case;
      return null;
    end
  $$`.execute(db);

  for (const table of [
    'messages',
    'fans',
    'creators',
    'chatbots',
    'notices',
    'knowledge_items',
    'credit_totals',
    'templates',
    'credit_purchases',
    'push_subscriptions',
  ]) {
    await sql`create trigger ${sql.raw(`${table}_changes`)} after insert or update or delete on ${sql.table(table)}
      for each row execute function changes_track()`.execute(db);
  }
  await sql`create trigger credit_ledger_changes after insert on credit_ledger
    for each row when (new.reason = 'ai_answer') execute function changes_track()`.execute(db);
  await sql`create trigger sessions_changes after update or delete on sessions
    for each row execute function changes_track()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'messages',
    'fans',
    'creators',
    'chatbots',
    'notices',
    'knowledge_items',
    'credit_totals',
    'templates',
    'credit_purchases',
    'push_subscriptions',
    'credit_ledger',
    'sessions',
  ]) {
    await sql`drop trigger if exists ${sql.raw(`${table}_changes`)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop function if exists changes_track()`.execute(db);
  await sql`drop function if exists note_change(char, text, text, text)`.execute(db);
  await sql`drop table if exists change_versions`.execute(db);
  await sql`drop sequence if exists change_seq`.execute(db);
}
