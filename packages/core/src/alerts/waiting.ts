import { sql } from 'kysely';
import type { Db } from '../db.ts';
import { ALERT_CHANNEL } from './note-alert.ts';

/** A question older than this is not alerted as waiting any more (it is in the digest). */
const WAITING_HORIZON_DAYS = 7;

/**
 * Notes a `waiting` alert for every fan question still pending longer than its creator's waiting
 * time (60 minutes unless they chose another), once per question (the unique index). Returns how
 * many were noted.
 */
export async function noteWaitingQuestions(db: Db, now = new Date()): Promise<number> {
  const result = await sql`insert into creator_alerts (creator_id, kind, ref, fan_id, detail)
    select m.creator_id, 'waiting', m.id::text, m.fan_id, left(m.body, 300)
    from messages m
    left join creator_alert_settings s on s.creator_id = m.creator_id
    where m.sender = 'fan' and m.status = 'pending'
      and m.created_at <= ${now}::timestamptz - make_interval(mins => coalesce(s.wait_minutes, 60))
      and m.created_at > ${now}::timestamptz - make_interval(days => ${WAITING_HORIZON_DAYS})
    on conflict (creator_id, kind, ref) do nothing`.execute(db);
  const noted = Number(result.numAffectedRows ?? 0);
  if (noted > 0) await sql`select pg_notify(${ALERT_CHANNEL}, '')`.execute(db);
  return noted;
}
