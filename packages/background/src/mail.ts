import type { MailJob } from '@fanpilot/contracts';
import { mailToSend, markMailFailed, markMailSent } from '@fanpilot/core';
import type { Database } from '@fanpilot/db';
import { attemptsWithin, type JobHandler, type RetryPolicy } from '@fanpilot/jobs';
import { isPermanentRejection, type Mailer, MailOffError } from '@fanpilot/mail';
import type { Kysely } from 'kysely';
import type { BackgroundLog } from './index.ts';

/**
 * How a mail is retried: 5 s, then doubling up to 10 minutes apart, for a day (a mail server down
 * for an hour delays mail, it does not lose it). Record 0042.
 */
export const MAIL_RETRY: RetryPolicy = { backoffMs: 5_000, maxBackoffMs: 600_000, retryForMs: 86_400_000 };

/**
 * The mail queue's handler: sends the outbox row the job names, once (a sent or abandoned row is
 * skipped, so a job that runs twice sends once), and gives up after the retry policy's last try.
 */
export function createMailHandler(options: {
  db: Kysely<Database>;
  mailer: Mailer;
  log: BackgroundLog;
  retry: RetryPolicy;
}): JobHandler<MailJob> {
  const { db, mailer, log } = options;
  const lastAttempt = attemptsWithin(options.retry);
  return async ({ mailId }, { attempt }) => {
    const mail = await mailToSend(db, mailId);
    if (!mail) return;
    try {
      const sent = await mailer.send({
        to: mail.to_address,
        subject: mail.subject,
        text: mail.text_body,
        html: mail.html_body,
        headers: mail.headers as Record<string, string> | null,
      });
      await markMailSent(db, mail.id, sent.messageId);
      log.info({ mailId, purpose: mail.purpose, ...(sent.file ? { file: sent.file } : {}) }, 'mail sent');
    } catch (err) {
      const off = err instanceof MailOffError;
      // A 5xx: the address is refused for good (a bounce); never retried.
      const bounced = isPermanentRejection(err);
      const final = off || bounced || attempt >= lastAttempt;
      await markMailFailed(db, mail.id, err instanceof Error ? err.message : String(err), final, bounced);
      if (off) {
        log.warn({ mailId, purpose: mail.purpose }, 'mail not sent: email is off (no SMTP_URL)');
        return;
      }
      if (bounced) {
        log.warn({ mailId, purpose: mail.purpose }, 'mail refused for good by the SMTP server (bounced)');
        return;
      }
      throw err;
    }
  };
}
