import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * The change feed's trigger no longer states the answer policy. Before, it bumped a creator's
 * public face (scope 'p') when the balance crossed one answer's price or the day's AI answers
 * reached the chatbot's budget: a second, plpgsql copy of "may the AI answer?". Now credit writes
 * bump only the creator's own inbox ('c'), and packages/core, which writes every ledger row, bumps
 * the public face when the write changes the policy's decision (credits.ts `writeLedger`, from
 * answer-policy.ts `aiRefusal`): one definition of the rule
 * (docs/decisions/0027-the-change-feed-asks-the-answer-policy.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace function changes_track() returns trigger language plpgsql as $$
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
        when 'sessions' then
          perform note_change('s', r.id::text, tg_table_name);
        else
          perform note_change('c', r.creator_id::text, tg_table_name);
      end case;
      return null;
    end
  $$`.execute(db);
  // Each AI charge is seen by the dashboard through credit_totals; the ledger's own trigger only
  // existed for the budget rule.
  await sql`drop trigger if exists credit_ledger_changes on credit_ledger`.execute(db);
}

/**
 * Nothing to undo that would be right: the previous trigger restated the policy, and packages/core
 * keeps announcing the public face either way (a second announcement is harmless, a version only
 * grows). The credit_ledger trigger comes back, as it was, for the older trigger body.
 */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create trigger credit_ledger_changes after insert on credit_ledger
    for each row when (new.reason = 'ai_answer') execute function changes_track()`.execute(db);
}
