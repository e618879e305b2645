import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JOBS, PUSH_QUEUE } from '@fanpilot/contracts';
import { writeJob } from '@fanpilot/core';
import type { DbHandle } from '@fanpilot/db';
import { loadIngestEnv } from '@fanpilot/knowledge';
import { createMailer } from '@fanpilot/mail';
import { type FakeOpenAI, openTestDb, seedCreator, startFakeOpenAI } from '@fanpilot/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const vapidDir = mkdtempSync(path.join(tmpdir(), 'fp-vapid-'));

import {
  ALL_ROLES,
  API_WITH_WORKER_ROLES,
  apiRoles,
  type Background,
  type BackgroundEnv,
  createBackgroundJobs,
  loadVapidKeys,
  startBackground,
  WORKER_ROLES,
  workerRoles,
} from './index.ts';

const until = async (check: () => Promise<boolean>, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('the background runtime', () => {
  let handle: DbHandle;
  let closeDb: () => Promise<void>;
  let openai: FakeOpenAI;
  let background: Background | undefined;
  beforeAll(async () => {
    ({ handle, close: closeDb } = await openTestDb(process.env.TEST_DATABASE_URL, 6));
    openai = await startFakeOpenAI();
  });
  afterEach(async () => {
    await background?.close();
    background = undefined;
  });
  afterAll(async () => {
    await openai?.close();
    await closeDb?.();
  });
  const env = (): BackgroundEnv => ({
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: openai.baseUrl,
    JOBS_PREFIX: 'unused',
    JOBS_ATTEMPTS: 3,
    JOBS_BACKOFF_MS: 20,
    ANSWER_RETRY_BACKOFF_MS: 20,
    ANSWER_RETRY_MAX_BACKOFF_MS: 40,
    ANSWER_RETRY_FOR_MS: 100,
  });
  const log = { info: () => {}, warn: () => {}, error: () => {} };

  it('gives each process its share: in-process all of it; with Redis a worker delivers what it has keys for', () => {
    expect(apiRoles('in-process')).toEqual(ALL_ROLES);
    expect(apiRoles('redis')).toEqual(API_WITH_WORKER_ROLES);
    // Between them the two processes on Redis run every role.
    expect(new Set([...WORKER_ROLES, ...API_WITH_WORKER_ROLES])).toEqual(new Set(ALL_ROLES));
    // A worker without delivery keys delivers nothing; with them, push, mail and alerts as the api does.
    expect(workerRoles({ push: false, mail: false, alerts: false })).toEqual([...WORKER_ROLES]);
    expect(new Set(workerRoles({ push: true, mail: true, alerts: true }))).toEqual(new Set(ALL_ROLES));
    expect(workerRoles({ push: false, mail: true, alerts: false })).toEqual([...WORKER_ROLES, 'mail']);
  });

  it('in-process, the relay hands the AI a question whose job was committed, and its answer asks for one push', async () => {
    const creator = await seedCreator(handle.db);
    // The push role's fan-outs, as it logs them (the fan has no device to push to).
    const pushes: unknown[] = [];
    const runtimeLog = {
      ...log,
      info: (obj: object, msg: string) => {
        if (msg === 'push fanned out') pushes.push(obj);
      },
    };
    const jobs = createBackgroundJobs({ db: handle.db, env: env(), log: runtimeLog });
    background = await startBackground({
      roles: apiRoles(jobs.mode),
      db: handle.db,
      env: env(),
      jobs,
      log: runtimeLog,
      push: { vapid: loadVapidKeys({ DATA_DIR: vapidDir }, 'http://127.0.0.1'), allowedHosts: [] },
      mail: { mailer: createMailer({ NODE_ENV: 'production' }) },
      alerts: { origin: 'http://127.0.0.1', secret: 'runtime-test-secret' },
      // No knowledge item is added here: the store is never read.
      ingest: {
        env: loadIngestEnv({}),
        storage: { get: () => Promise.reject(new Error('unused')) },
        threads: 1,
      },
    });
    // Stored with its answer job in one transaction by a process that stopped before relaying it.
    const [id] = await creator.ask(1);
    await writeJob(handle.db, JOBS.answer, { messageId: id! });
    const answered = async () =>
      (
        await handle.db
          .selectFrom('messages')
          .select('id')
          .where('reply_to', '=', id!)
          .where('sender', '=', 'Creatorai')
          .execute()
      ).length;
    await until(async () => (await answered()) === 1);
    await background.idle();
    expect(await answered()).toBe(1);
    expect(pushes).toEqual([{ kind: 'message', id: expect.any(String), devices: 0 }]);
    expect(await jobs.pending(PUSH_QUEUE)).toBe(0);
  });
});
