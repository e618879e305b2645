import { randomBytes } from 'node:crypto';
import { fansRepository, mailsTo, messagesRepository, pushSubscriptions, queueMail } from '@fanpilot/core';
import type { DbHandle } from '@fanpilot/db';
import { loadIngestEnv } from '@fanpilot/knowledge';
import { createMailer, type Mailer } from '@fanpilot/mail';
import {
  openTestDb,
  type SmtpService,
  seedCreator,
  startPushService,
  startSmtpService,
} from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import {
  type Background,
  type BackgroundEnv,
  createBackgroundJobs,
  loadVapidKeys,
  startBackground,
  WORKER_ROLES,
  workerRoles,
} from './index.ts';

const log = { info: () => {}, warn: () => {}, error: () => {} };

// Push and mail are jobs of the one job outbox, delivered by any process given their keys (record
// 0077): here a worker alone, with no api anywhere, on Redis when the tests have one.
describe('a worker with the delivery keys, and no api', () => {
  let handle: DbHandle;
  let closeDb: () => Promise<void>;
  let smtp: SmtpService;
  let pushService: Awaited<ReturnType<typeof startPushService>>;
  let background: Background | undefined;
  let mailer: Mailer | undefined;
  beforeAll(async () => {
    ({ handle, close: closeDb } = await openTestDb(process.env.TEST_DATABASE_URL, 13));
    smtp = await startSmtpService();
    pushService = await startPushService();
  });
  afterAll(async () => {
    await background?.close();
    mailer?.close();
    await pushService?.close();
    await smtp?.close();
    await closeDb?.();
  });

  it('delivers a committed push and mail through the relay, and nothing for a rolled-back change', async () => {
    const env: BackgroundEnv = {
      REDIS_URL: process.env.TEST_REDIS_URL,
      JOBS_PREFIX: `worker-delivery-${randomBytes(4).toString('hex')}`,
      JOBS_ATTEMPTS: 3,
      JOBS_BACKOFF_MS: 20,
      ANSWER_RETRY_BACKOFF_MS: 20,
      ANSWER_RETRY_MAX_BACKOFF_MS: 40,
      ANSWER_RETRY_FOR_MS: 100,
    };
    // The keys as the worker reads them from its environment (packages/config deliveryShape).
    const keys = webpush.generateVAPIDKeys();
    const vapid = loadVapidKeys(
      { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey, DATA_DIR: '' },
      'http://127.0.0.1',
    );
    mailer = createMailer({ NODE_ENV: 'production', SMTP_URL: smtp.url });
    const roles = workerRoles({ push: true, mail: true, alerts: false });
    expect(roles).toEqual([...WORKER_ROLES, 'push', 'mail']);

    const { creatorId } = await seedCreator(handle.db);
    const fan = await fansRepository(handle.db).insertOrGet({
      creatorId,
      fanKey: `fan_${randomBytes(6).toString('hex')}`,
      name: 'Finn',
      cookieHash: `cookie-${randomBytes(4).toString('hex')}`,
    });
    const device = pushService.device();
    await pushSubscriptions(handle.db).save(fan, device.subscription, true);

    const reply = (db: typeof handle.db, body: string) =>
      messagesRepository(db).insert({
        creatorId,
        fanRowId: fan.id,
        sender: 'creator',
        body,
        status: null,
        replyTo: null,
        fanName: null,
      });
    // A change that rolls back: its reply and its mail leave no job behind.
    await handle.db
      .transaction()
      .execute(async (trx) => {
        await reply(trx, 'Never pushed');
        await queueMail(trx, { purpose: 'test', to: 'rolled@example.com', subject: 'Never', text: 'x' });
        throw new Error('rolled back');
      })
      .catch(() => {});
    // The committed change: a reply to the fan and a mail, in one transaction.
    const sent = await handle.db.transaction().execute(async (trx) => {
      const id = await reply(trx, 'Hello from the worker');
      await queueMail(trx, {
        purpose: 'test',
        to: 'worker@example.com',
        subject: 'From a worker',
        text: 'Hi',
      });
      return id;
    });

    const jobs = createBackgroundJobs({ db: handle.db, env, log });
    background = await startBackground({
      roles,
      db: handle.db,
      listen: handle.listen,
      env,
      jobs,
      log,
      ingest: {
        env: loadIngestEnv({}),
        storage: { get: () => Promise.reject(new Error('unused')) },
        threads: 1,
        embedder: null,
      },
      push: { vapid, allowedHosts: ['127.0.0.1'] },
      mail: { mailer },
    });

    const mail = await smtp.waitFor((m) => m.to.includes('worker@example.com'), 20_000);
    expect(mail.subject).toBe('From a worker');
    const end = Date.now() + 20_000;
    while (pushService.received.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
    await background.idle();

    // One push, signed with the worker's keys, about the committed reply only.
    expect(pushService.received).toHaveLength(1);
    const [push] = pushService.received;
    expect(push!.device).toBe(device.id);
    expect(push!.vapid.publicKey).toBe(keys.publicKey);
    expect(push!.payload).toMatchObject({
      body: 'Hello from the worker',
      url: expect.stringContaining(`message=${sent}`),
    });
    // The mail went out once and is kept as sent; the rolled-back one was never stored nor sent.
    expect((await mailsTo(handle.db, 'worker@example.com')).map((m) => m.sent_at !== null)).toEqual([true]);
    expect(await mailsTo(handle.db, 'rolled@example.com')).toEqual([]);
    expect(smtp.received.filter((m) => m.to.includes('rolled@example.com'))).toEqual([]);
    expect(await handle.db.selectFrom('job_outbox').select('name').execute()).toEqual([]);
  });
});
