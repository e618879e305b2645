import { RESTORE_REQUESTS_PER_EMAIL_PER_HOUR } from '@fanpilot/contracts';
import { sql } from 'kysely';
import type { Db } from '../db.ts';
import { hashToken } from '../tokens.ts';

// A restore link is mailed to whatever address a fan types, so the mails one inbox can be sent are
// capped by the email, not by the asking address (which rotates): RESTORE_REQUESTS_PER_EMAIL_PER_HOUR
// per rolling hour (record 0071). Requests are counted, not mails: an email that subscribes and one
// that does not reach the cap alike, so the refusal tells nobody who subscribes. Only the email's
// hash is kept, and only for the hour.

const WINDOW_MS = 60 * 60 * 1000;

/** Whether one more restore link may be asked for an email, or how many seconds until one may. */
export type RestoreRequestAllowance = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** How an email is keyed: trimmed, lower case (as requestRestoreLink reads it), hashed. */
const emailKey = (email: string) => hashToken(`restore-request:${email.trim().toLowerCase()}`);

/**
 * Counts a request for a restore link to `email` when it is within the cap (every creator's chats
 * count together: it is one inbox), or refuses it with the seconds until the oldest request of the
 * hour leaves the window. A refused request is not counted. Requests for one email are taken one at
 * a time (a transaction-scoped advisory lock), so api processes racing cannot pass the cap together.
 */
export async function takeRestoreRequest(
  db: Db,
  email: string,
  now: Date = new Date(),
): Promise<RestoreRequestAllowance> {
  const key = emailKey(email);
  const since = new Date(now.getTime() - WINDOW_MS);
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`fan_restore_requests:${key}`}))`.execute(trx);
    // What left the window, for every email: nothing is kept longer than the hour it counts for.
    await trx.deleteFrom('fan_restore_requests').where('requested_at', '<=', since).execute();
    const recent = await trx
      .selectFrom('fan_restore_requests')
      .select('requested_at')
      .where('email_hash', '=', key)
      .where('requested_at', '>', since)
      .orderBy('requested_at', 'asc')
      .execute();
    if (recent.length >= RESTORE_REQUESTS_PER_EMAIL_PER_HOUR) {
      const frees = new Date(recent[0]!.requested_at).getTime() + WINDOW_MS;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((frees - now.getTime()) / 1000)) };
    }
    await trx.insertInto('fan_restore_requests').values({ email_hash: key, requested_at: now }).execute();
    return { allowed: true };
  });
}
