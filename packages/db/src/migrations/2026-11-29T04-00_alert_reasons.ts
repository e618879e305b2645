import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Why a question waits for the creator (docs/decisions/0073-information-before-offers-and-true-reasons.md):
 * an alert of kind 'question' keeps the reason it was noted with, so the creator's email and push
 * say the true one (the AI handed it over; no chatbot; credits used up; today's budget reached;
 * the creator is Online) instead of always "Your AI handed this question to you". A null reason is
 * a hand-over (the trigger's alerts, and every alert noted before this migration).
 * `creator_alert_add` gains a six-argument form with the reason; the five-argument form stays for
 * the triggers and notes no reason.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table creator_alerts add column reason text`.execute(db);
  await sql`create or replace function creator_alert_add(creator uuid, kind_ text, ref_ text, fan uuid, detail_ text, reason_ text)
    returns void language plpgsql as $$
    begin
      insert into creator_alerts (creator_id, kind, ref, fan_id, detail, reason)
        values (creator, kind_, ref_, fan, coalesce(detail_, ''), reason_)
        on conflict (creator_id, kind, ref) do nothing;
      perform pg_notify('fp_alert', '');
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists creator_alert_add(uuid, text, text, uuid, text, text)`.execute(db);
  await sql`alter table creator_alerts drop column if exists reason`.execute(db);
}
