import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * AI-drafted replies (docs/decisions/0060): a draft of the creator's reply to a pending fan
 * question, written from the creator's content when the creator opens it, kept until it is sent or
 * discarded. A sent draft is charged once, as an `ai_draft` row of the ledger; the credit totals
 * count it as used like an AI answer (it is not an AI answer to a fan, so the daily AI budget and the
 * answer policy's counts leave it out).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table reply_drafts (
    question_id bigint primary key references messages (id) on delete cascade,
    creator_id uuid not null references creators (id) on delete cascade,
    body text not null,
    sources jsonb not null default '[]'::jsonb,
    covered boolean not null,
    model text,
    status text not null default 'open' check (status in ('open', 'sent', 'discarded')),
    created_at timestamptz not null default now(),
    closed_at timestamptz
  )`.execute(db);
  await sql`create index reply_drafts_creator_idx on reply_drafts (creator_id, created_at)`.execute(db);

  await sql`alter table credit_ledger drop constraint if exists credit_ledger_reason_check`.execute(db);
  await sql`alter table credit_ledger add constraint credit_ledger_reason_check
    check (reason in ('free_grant', 'ai_answer', 'purchase', 'adjustment', 'ai_draft'))`.execute(db);
  // One charge per drafted reply, however often its send is retried.
  await sql`create unique index credit_ledger_one_draft_uq on credit_ledger (message_id) where reason = 'ai_draft'`.execute(
    db,
  );
  await sql`create or replace function credit_totals_track() returns trigger language plpgsql as $$
    declare
      row_ credit_ledger;
      sign_ integer;
    begin
      if tg_op = 'INSERT' then row_ := new; sign_ := 1; else row_ := old; sign_ := -1; end if;
      insert into credit_totals as t (creator_id, balance, used, free, purchased)
      values (
        row_.creator_id,
        sign_ * row_.delta,
        case when row_.reason in ('ai_answer', 'ai_draft') then -sign_ * row_.delta else 0 end,
        case when row_.reason = 'free_grant' then sign_ * row_.delta else 0 end,
        case when row_.reason = 'purchase' then sign_ * row_.delta else 0 end
      )
      on conflict (creator_id) do update set
        balance = t.balance + excluded.balance,
        used = t.used + excluded.used,
        free = t.free + excluded.free,
        purchased = t.purchased + excluded.purchased;
      return null;
    end
  $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace function credit_totals_track() returns trigger language plpgsql as $$
    declare
      row_ credit_ledger;
      sign_ integer;
    begin
      if tg_op = 'INSERT' then row_ := new; sign_ := 1; else row_ := old; sign_ := -1; end if;
      insert into credit_totals as t (creator_id, balance, used, free, purchased)
      values (
        row_.creator_id,
        sign_ * row_.delta,
        case when row_.reason = 'ai_answer' then -sign_ * row_.delta else 0 end,
        case when row_.reason = 'free_grant' then sign_ * row_.delta else 0 end,
        case when row_.reason = 'purchase' then sign_ * row_.delta else 0 end
      )
      on conflict (creator_id) do update set
        balance = t.balance + excluded.balance,
        used = t.used + excluded.used,
        free = t.free + excluded.free,
        purchased = t.purchased + excluded.purchased;
      return null;
    end
  $$`.execute(db);
  await sql`drop index if exists credit_ledger_one_draft_uq`.execute(db);
  await sql`delete from credit_ledger where reason = 'ai_draft'`.execute(db);
  await sql`alter table credit_ledger drop constraint if exists credit_ledger_reason_check`.execute(db);
  await sql`alter table credit_ledger add constraint credit_ledger_reason_check
    check (reason in ('free_grant', 'ai_answer', 'purchase', 'adjustment'))`.execute(db);
  await sql`drop table if exists reply_drafts`.execute(db);
}
