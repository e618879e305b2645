import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Creator alerts (docs/decisions/0061-creator-alerts-follow-committed-facts.md): what the creator
 * should hear of while away leaves a row in `creator_alerts` in the transaction that commits it
 * (triggers below, or the use case itself), unique per fact, and wakes the alerts role with a
 * NOTIFY on `fp_alert`. The role groups a creator's rows into one email and one push
 * (`creator_alert_batches`), outside quiet hours, under a row lock taken with SKIP LOCKED, so every
 * alert is sent once whatever the number of processes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table creator_alert_settings (
    creator_id uuid primary key references creators(id) on delete cascade,
    channels jsonb not null default '{}'::jsonb,
    wait_minutes integer not null default 60 check (wait_minutes between 5 and 10080),
    quiet_start integer check (quiet_start between 0 and 1439),
    quiet_end integer check (quiet_end between 0 and 1439),
    time_zone text not null default 'UTC',
    digest text not null default 'daily' check (digest in ('daily', 'weekly', 'off')),
    digest_hour integer not null default 8 check (digest_hour between 0 and 23),
    last_digest_on text,
    email_bounced_at timestamptz,
    email_bounce_reason text,
    updated_at timestamptz not null default now()
  )`.execute(db);
  await sql`create table creator_alert_batches (
    id uuid primary key default gen_random_uuid(),
    creator_id uuid not null references creators(id) on delete cascade,
    title text not null,
    body text not null,
    url text not null,
    alert_count integer not null,
    emailed boolean not null default false,
    pushed boolean not null default false,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create table creator_alerts (
    id bigserial primary key,
    creator_id uuid not null references creators(id) on delete cascade,
    kind text not null check (kind in ('question', 'waiting', 'budget_reached', 'credits_low',
      'credits_out', 'source_failed', 'new_subscriber', 'subscription_cancelled')),
    ref text not null,
    fan_id uuid references fans(id) on delete set null,
    detail text not null default '',
    created_at timestamptz not null default now(),
    sent_at timestamptz,
    batch_id uuid references creator_alert_batches(id) on delete set null,
    unique (creator_id, kind, ref)
  )`.execute(db);
  await sql`create index creator_alerts_unsent_idx on creator_alerts (creator_id, created_at) where sent_at is null`.execute(
    db,
  );
  await sql`create table creator_push_subscriptions (
    id uuid primary key default gen_random_uuid(),
    creator_id uuid not null references creators(id) on delete cascade,
    endpoint text not null,
    p256dh text not null,
    auth text not null,
    created_at timestamptz not null default now(),
    last_pushed_at timestamptz,
    unique (creator_id, endpoint)
  )`.execute(db);
  await sql`create table creator_push_deliveries (
    subscription_id uuid not null references creator_push_subscriptions(id) on delete cascade,
    batch_id uuid not null,
    claimed_at timestamptz not null default now(),
    primary key (subscription_id, batch_id)
  )`.execute(db);
  // A creator's alert batch is pushed through the push outbox like a fan's message.
  await sql`alter table push_outbox drop constraint if exists push_outbox_kind_check`.execute(db);
  await sql`alter table push_outbox add constraint push_outbox_kind_check
    check (kind in ('message', 'notice', 'alert'))`.execute(db);
  // Mail headers (List-Unsubscribe, List-Unsubscribe-Post) and a permanent refusal noted as a bounce.
  await sql`alter table mail_outbox add column headers jsonb`.execute(db);
  await sql`alter table mail_outbox add column bounced boolean not null default false`.execute(db);

  await sql`create or replace function creator_alert_add(creator uuid, kind_ text, ref_ text, fan uuid, detail_ text)
    returns void language plpgsql as $$
    begin
      insert into creator_alerts (creator_id, kind, ref, fan_id, detail)
        values (creator, kind_, ref_, fan, coalesce(detail_, ''))
        on conflict (creator_id, kind, ref) do nothing;
      perform pg_notify('fp_alert', '');
    end $$`.execute(db);
  // The AI handed a question to the creator (its reply passed it on, or its tries ran out).
  await sql`create or replace function creator_alert_handed_over() returns trigger language plpgsql as $$
    begin
      perform creator_alert_add(new.creator_id, 'question', new.id::text, new.fan_id, left(new.body, 300));
      return null;
    end $$`.execute(db);
  await sql`create trigger messages_alert_handed_over after update of ai_handed_over_at on messages
    for each row when (old.ai_handed_over_at is null and new.ai_handed_over_at is not null
      and new.sender = 'fan' and new.status = 'pending')
    execute function creator_alert_handed_over()`.execute(db);
  // A knowledge source failed (its tries ran out, or it cannot be read).
  await sql`create or replace function creator_alert_source_failed() returns trigger language plpgsql as $$
    declare owner_ uuid;
    begin
      select b.creator_id into owner_ from chatbots b where b.id = new.chatbot_id;
      if owner_ is not null then
        perform creator_alert_add(owner_, 'source_failed',
          new.id::text || '@' || new.attempts::text || '@' || extract(epoch from now())::bigint::text, null,
          coalesce(new.title, new.file_name, new.url, new.youtube_url, 'A source'));
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger knowledge_items_alert_failed after update of status on knowledge_items
    for each row when (new.status = 'failed' and old.status is distinct from 'failed')
    execute function creator_alert_source_failed()`.execute(db);
  // Credits: the balance fell below the low mark (100, LOW_CREDITS_THRESHOLD) or to nothing.
  await sql`create or replace function creator_alert_credits() returns trigger language plpgsql as $$
    begin
      if old.balance > 0 and new.balance <= 0 then
        perform creator_alert_add(new.creator_id, 'credits_out', gen_random_uuid()::text, null, new.balance::text);
      elsif old.balance >= 100 and new.balance < 100 then
        perform creator_alert_add(new.creator_id, 'credits_low', gen_random_uuid()::text, null, new.balance::text);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger credit_totals_alert after update of balance on credit_totals
    for each row when (new.balance < old.balance)
    execute function creator_alert_credits()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists credit_totals_alert on credit_totals`.execute(db);
  await sql`drop trigger if exists knowledge_items_alert_failed on knowledge_items`.execute(db);
  await sql`drop trigger if exists messages_alert_handed_over on messages`.execute(db);
  await sql`drop function if exists creator_alert_credits()`.execute(db);
  await sql`drop function if exists creator_alert_source_failed()`.execute(db);
  await sql`drop function if exists creator_alert_handed_over()`.execute(db);
  await sql`drop function if exists creator_alert_add(uuid, text, text, uuid, text)`.execute(db);
  await sql`alter table mail_outbox drop column if exists bounced`.execute(db);
  await sql`alter table mail_outbox drop column if exists headers`.execute(db);
  await sql`delete from push_outbox where kind = 'alert'`.execute(db);
  await sql`alter table push_outbox drop constraint if exists push_outbox_kind_check`.execute(db);
  await sql`alter table push_outbox add constraint push_outbox_kind_check
    check (kind in ('message', 'notice'))`.execute(db);
  await sql`drop table if exists creator_push_deliveries`.execute(db);
  await sql`drop table if exists creator_push_subscriptions`.execute(db);
  await sql`drop table if exists creator_alerts`.execute(db);
  await sql`drop table if exists creator_alert_batches`.execute(db);
  await sql`drop table if exists creator_alert_settings`.execute(db);
}
