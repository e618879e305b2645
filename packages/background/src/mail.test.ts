import { MAIL_KEPT_MS, mailsTo, pruneMailOutbox, queueMail } from '@fanpilot/core';
import type { DbHandle } from '@fanpilot/db';
import { createMailer, type Mailer } from '@fanpilot/mail';
import { openTestDb, type SmtpService, startSmtpService } from '@fanpilot/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Background, type BackgroundEnv, createBackgroundJobs, startBackground } from './index.ts';

const env: BackgroundEnv = {
  JOBS_PREFIX: 'unused',
  JOBS_ATTEMPTS: 3,
  JOBS_BACKOFF_MS: 20,
  ANSWER_RETRY_BACKOFF_MS: 20,
  ANSWER_RETRY_MAX_BACKOFF_MS: 40,
  ANSWER_RETRY_FOR_MS: 100,
};
const log = { info: () => {}, warn: () => {}, error: () => {} };
const QUICK = { backoffMs: 20, maxBackoffMs: 80, retryForMs: 300 };

describe('the mail role', () => {
  let handle: DbHandle;
  let closeDb: () => Promise<void>;
  let smtp: SmtpService;
  let background: Background | undefined;
  let mailer: Mailer | undefined;
  beforeAll(async () => {
    ({ handle, close: closeDb } = await openTestDb(process.env.TEST_DATABASE_URL, 7));
    smtp = await startSmtpService();
  });
  afterEach(async () => {
    await background?.close();
    background = undefined;
    mailer?.close();
  });
  afterAll(async () => {
    await smtp.close();
    await closeDb?.();
  });

  const start = async (m: Mailer, retry = QUICK) => {
    mailer = m;
    const jobs = createBackgroundJobs({ db: handle.db, env, log, overrides: { retry: { mail: retry } } });
    background = await startBackground({
      roles: ['relay', 'mail'],
      db: handle.db,
      env,
      jobs,
      log,
      mail: { mailer: m, retry },
      listen: handle.listen,
    });
    return background;
  };

  it('sends a mail queued in a transaction once it commits, through the real SMTP transport', async () => {
    const bg = await start(createMailer({ NODE_ENV: 'production', SMTP_URL: smtp.url }));
    await handle.db.transaction().execute(async (trx) => {
      await queueMail(trx, { purpose: 'test', to: 'committed@example.com', subject: 'Hello', text: 'Body' });
    });
    const mail = await smtp.waitFor((m) => m.to.includes('committed@example.com'));
    expect(mail.subject).toBe('Hello');
    await bg.idle();
    const [row] = await mailsTo(handle.db, 'committed@example.com');
    expect(row?.sent_at).not.toBeNull();
    expect(row?.attempts).toBe(1);
  });

  it('sends nothing for a rolled-back transaction', async () => {
    const bg = await start(createMailer({ NODE_ENV: 'production', SMTP_URL: smtp.url }));
    await handle.db
      .transaction()
      .execute(async (trx) => {
        await queueMail(trx, { purpose: 'test', to: 'rolled@example.com', subject: 'No', text: 'No' });
        throw new Error('roll back');
      })
      .catch(() => {});
    await bg.idle();
    expect(smtp.received.some((m) => m.to.includes('rolled@example.com'))).toBe(false);
    expect(await mailsTo(handle.db, 'rolled@example.com')).toEqual([]);
  });

  it('retries with back-off while the server refuses, and sends once', async () => {
    const bg = await start(createMailer({ NODE_ENV: 'production', SMTP_URL: smtp.url }));
    smtp.refuseNext(2);
    await queueMail(handle.db, {
      purpose: 'test',
      to: 'retry@example.com',
      subject: 'Third time',
      text: 'x',
    });
    await bg.idle();
    expect(smtp.received.filter((m) => m.to.includes('retry@example.com'))).toHaveLength(1);
    const [row] = await mailsTo(handle.db, 'retry@example.com');
    expect(row?.attempts).toBe(3);
    expect(row?.sent_at).not.toBeNull();
    expect(row?.last_error).toMatch(/451|later/i);
  });

  it('gives up after the last try and keeps the reason', async () => {
    const bg = await start(createMailer({ NODE_ENV: 'production', SMTP_URL: 'smtp://127.0.0.1:1' }), {
      backoffMs: 10,
      maxBackoffMs: 20,
      retryForMs: 30,
    });
    await queueMail(handle.db, { purpose: 'test', to: 'nobody@example.com', subject: 'Lost', text: 'x' });
    await bg.idle();
    const [row] = await mailsTo(handle.db, 'nobody@example.com');
    expect(row?.sent_at).toBeNull();
    expect(row?.failed_at).not.toBeNull();
    expect(row?.attempts).toBeGreaterThanOrEqual(2);
  });

  it('with mail off (production, no SMTP_URL) marks the mail failed at once without retrying', async () => {
    const bg = await start(createMailer({ NODE_ENV: 'production' }));
    await queueMail(handle.db, { purpose: 'test', to: 'off@example.com', subject: 'Off', text: 'x' });
    await bg.idle();
    const [row] = await mailsTo(handle.db, 'off@example.com');
    expect(row?.failed_at).not.toBeNull();
    expect(row?.attempts).toBe(1);
    expect(row?.last_error).toMatch(/off/);
  });

  it('deletes sent and abandoned mail after MAIL_KEPT_MS, never mail still waiting', async () => {
    const old = new Date(Date.now() - MAIL_KEPT_MS - 60_000);
    const recent = new Date(Date.now() - 60_000);
    const ids: Record<string, string> = {};
    for (const name of ['sent-old', 'failed-old', 'waiting-old', 'sent-recent']) {
      ids[name] = await queueMail(handle.db, {
        purpose: 'prune-test',
        to: `${name}@prune.example`,
        subject: name,
        text: 'x',
      });
    }
    const set = async (name: string, values: Record<string, Date | null>) =>
      handle.db.updateTable('mail_outbox').set(values).where('id', '=', ids[name]!).execute();
    // No mail role runs here: their jobs wait in the job outbox meanwhile.
    for (const name of Object.keys(ids)) await set(name, { created_at: old });
    await set('sent-old', { sent_at: old });
    await set('failed-old', { failed_at: old });
    await set('sent-recent', { sent_at: recent });
    expect(await pruneMailOutbox(handle.db, new Date(Date.now() - MAIL_KEPT_MS), 1)).toBe(2);
    const left = await handle.db
      .selectFrom('mail_outbox')
      .select('to_address')
      .where('purpose', '=', 'prune-test')
      .orderBy('to_address')
      .execute();
    expect(left.map((r) => r.to_address)).toEqual(['sent-recent@prune.example', 'waiting-old@prune.example']);
  });
});
