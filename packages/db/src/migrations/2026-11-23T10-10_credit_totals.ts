import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * A creator's credit totals, kept by a trigger on the ledger: the balance every AI answer checks
 * and the dashboard shows is one row, not the sum of a ledger that grows by one row per answer.
 * The ledger stays the record; the totals are derived from it and rebuilt here from it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table credit_totals (
    creator_id uuid primary key references creators (id) on delete cascade,
    balance bigint not null default 0,
    used bigint not null default 0,
    free bigint not null default 0,
    purchased bigint not null default 0
  )`.execute(db);
  await sql`insert into credit_totals (creator_id, balance, used, free, purchased)
    select creator_id,
      coalesce(sum(delta), 0),
      coalesce(-sum(delta) filter (where reason = 'ai_answer'), 0),
      coalesce(sum(delta) filter (where reason = 'free_grant'), 0),
      coalesce(sum(delta) filter (where reason = 'purchase'), 0)
    from credit_ledger group by creator_id`.execute(db);
  await sql`create function credit_totals_track() returns trigger language plpgsql as $$
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
  await sql`create trigger credit_ledger_totals_insert after insert on credit_ledger
    for each row execute function credit_totals_track()`.execute(db);
  // A creator deleted takes its ledger with it; the totals row goes by its own cascade.
  await sql`create trigger credit_ledger_totals_delete after delete on credit_ledger
    for each row when (pg_trigger_depth() = 0) execute function credit_totals_track()`.execute(db);
  await sql`create function credit_ledger_no_update() returns trigger language plpgsql as $$
    begin
      if new.delta is distinct from old.delta or new.reason is distinct from old.reason
        or new.creator_id is distinct from old.creator_id then
        raise exception 'credit_ledger rows are not changed; add an adjustment instead';
      end if;
      return new;
    end
  $$`.execute(db);
  await sql`create trigger credit_ledger_append_only before update on credit_ledger
    for each row execute function credit_ledger_no_update()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists credit_ledger_append_only on credit_ledger`.execute(db);
  await sql`drop trigger if exists credit_ledger_totals_insert on credit_ledger`.execute(db);
  await sql`drop trigger if exists credit_ledger_totals_delete on credit_ledger`.execute(db);
  await sql`drop function if exists credit_ledger_no_update()`.execute(db);
  await sql`drop function if exists credit_totals_track()`.execute(db);
  await sql`drop table if exists credit_totals`.execute(db);
}
