import { JOBS } from '@fanpilot/contracts';
import { noteMailBounce } from './alerts/settings.ts';
import type { Db } from './db.ts';
import { writeJob } from './job-outbox.ts';

// A mail is stored in `mail_outbox` by the transaction that asks for it, with its `mail` job in the
// one job outbox (records 0042, 0077); the relay hands the job to the background `mail` role, which
// sends it. Use cases call queueMail inside their transaction; nothing else sends. The row stays
// after sending (MAIL_KEPT_MS): what went out, to whom, and whether it bounced.

/** A longest error kept per mail (the last one). */
const ERROR_MAX = 500;

export interface OutgoingMail {
  /** What the mail is for ('restore_link', 'creator_alert', …): for logs and counts. */
  purpose: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post). */
  headers?: Record<string, string>;
}

/** Queues a mail to be sent after the caller's transaction commits (never if it rolls back). Returns its id. */
export async function queueMail(db: Db, mail: OutgoingMail): Promise<string> {
  const row = await db
    .insertInto('mail_outbox')
    .values({
      purpose: mail.purpose,
      to_address: mail.to,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html ?? null,
      headers: mail.headers ? JSON.stringify(mail.headers) : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await writeJob(db, JOBS.mail, { mailId: row.id });
  return row.id;
}

/** The mail to send for job `id`: undefined when it is sent, given up on, or unknown. */
export async function mailToSend(db: Db, id: string) {
  return db
    .selectFrom('mail_outbox')
    .select(['id', 'purpose', 'to_address', 'subject', 'text_body', 'html_body', 'headers', 'attempts'])
    .where('id', '=', id)
    .where('sent_at', 'is', null)
    .where('failed_at', 'is', null)
    .executeTakeFirst();
}

/** The mail went out. */
export async function markMailSent(db: Db, id: string, messageId: string): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set((eb) => ({ sent_at: new Date(), message_id: messageId, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

/**
 * A try failed: counted, the error kept; `final` gives up on the mail for good. `bounced`: the
 * server refused the address for good (a 5xx reply); a creator's alert address is noted as bounced
 * on their settings page.
 */
export async function markMailFailed(
  db: Db,
  id: string,
  error: string,
  final: boolean,
  bounced = false,
): Promise<void> {
  const row = await db
    .updateTable('mail_outbox')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      last_error: error.slice(0, ERROR_MAX),
      ...(final || bounced ? { failed_at: new Date() } : {}),
      ...(bounced ? { bounced: true } : {}),
    }))
    .where('id', '=', id)
    .returning(['to_address', 'purpose'])
    .executeTakeFirst();
  if (bounced && row && CREATOR_MAIL.has(row.purpose)) await noteMailBounce(db, row.to_address, error);
}

/** The mails sent to a creator about their own account (a bounce is shown on their settings). */
const CREATOR_MAIL = new Set(['creator_alert', 'creator_digest']);

/**
 * How long a mail is kept once sent or given up on (for support: "did the restore link go out?").
 * A mail holds one-time links and a fan's address, so it is not kept for good.
 */
export const MAIL_KEPT_MS = 30 * 86_400_000;

/** Deletes mails sent or given up on before `before` (a waiting mail is never deleted). Returns how many. */
export async function pruneMailOutbox(db: Db, before: Date, batch = 5_000): Promise<number> {
  let deleted = 0;
  for (;;) {
    const result = await db
      .deleteFrom('mail_outbox')
      .where(
        'id',
        'in',
        db
          .selectFrom('mail_outbox')
          .select('id')
          .where((eb) => eb.or([eb('sent_at', '<', before), eb('failed_at', '<', before)]))
          .limit(batch),
      )
      .executeTakeFirst();
    const n = Number(result.numDeletedRows);
    deleted += n;
    if (n < batch) return deleted;
  }
}

/** The mails sent to `to` (newest first), for support and tests. */
export async function mailsTo(db: Db, to: string) {
  return db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_address', '=', to)
    .orderBy('created_at', 'desc')
    .execute();
}
