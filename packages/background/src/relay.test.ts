import { randomUUID } from 'node:crypto';
import { ANSWER_QUEUE, type AnswerJob, answerJobSchema, defineJob } from '@fanpilot/contracts';
import { ask, jobOutboxSize, writeJob } from '@fanpilot/core';
import type { DbHandle } from '@fanpilot/db';
import { createJobRunner, type JobHandler, type JobRunner } from '@fanpilot/jobs';
import {
  type FakeOpenAI,
  openTestDb,
  seedCreator,
  seedFan,
  startFakeOpenAI,
  withFaults,
} from '@fanpilot/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type Background,
  type BackgroundEnv,
  createBackgroundJobs,
  jobOutboxRelay,
  startBackground,
} from './index.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const log = { info: () => {}, warn: () => {}, error: () => {} };

/** A job kind of this test's own: one job per `messageId`. */
const counted = defineJob<AnswerJob>({
  name: 'relay-test',
  payload: answerJobSchema,
  key: (job) => `relay-test-${job.messageId}`,
});

describe('the job outbox and its relay', () => {
  let handle: DbHandle;
  let closeDb: () => Promise<void>;
  let openai: FakeOpenAI;
  const runners: JobRunner[] = [];
  const backgrounds: Background[] = [];
  beforeAll(async () => {
    ({ handle, close: closeDb } = await openTestDb(process.env.TEST_DATABASE_URL, 12));
    openai = await startFakeOpenAI();
  });
  afterEach(async () => {
    await Promise.all(backgrounds.splice(0).map((b) => b.close()));
    await Promise.all(runners.splice(0).map((r) => r.close()));
    await handle.db.deleteFrom('job_outbox').execute();
  });
  afterAll(async () => {
    await openai?.close();
    await closeDb?.();
  });
  const env = (prefix: string): BackgroundEnv => ({
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: openai.baseUrl,
    REDIS_URL: redisUrl,
    JOBS_PREFIX: prefix,
    JOBS_ATTEMPTS: 3,
    JOBS_BACKOFF_MS: 20,
    ANSWER_RETRY_BACKOFF_MS: 20,
    ANSWER_RETRY_MAX_BACKOFF_MS: 40,
    ANSWER_RETRY_FOR_MS: 100,
  });

  /** A handler that counts each run per message id. */
  const counter = () => {
    const runs = new Map<string, number>();
    const handler: JobHandler<AnswerJob> = async ({ messageId }) => {
      runs.set(messageId, (runs.get(messageId) ?? 0) + 1);
    };
    return { runs, handler: handler as JobHandler<never> };
  };

  it('relays a job only once its transaction commits, checks its payload, and writes a waiting key once', async () => {
    await expect(
      handle.db.transaction().execute(async (trx) => {
        await writeJob(trx, counted, { messageId: '1' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await jobOutboxSize(handle.db)).toBe(0);
    await expect(writeJob(handle.db, counted, { messageId: 'not a number' })).rejects.toThrow();
    await handle.db.transaction().execute(async (trx) => {
      await writeJob(trx, counted, { messageId: '2' });
      await writeJob(trx, counted, { messageId: '2' });
    });
    expect(await jobOutboxSize(handle.db)).toBe(1);

    const jobs = createJobRunner({});
    runners.push(jobs);
    const { runs, handler } = counter();
    jobs.work({ [counted.name]: handler });
    await jobOutboxRelay(handle.db, jobs, log)();
    await jobs.idle();
    expect(Object.fromEntries(runs)).toEqual({ '2': 1 });
    expect(await jobOutboxSize(handle.db)).toBe(0);
  });

  it.skipIf(!redisUrl)(
    'committed, then the process dies before the enqueue, and a relay dies between enqueue and delete: the job runs once',
    async () => {
      const prefix = `t-${randomUUID()}`;
      // The api stored its change and its job, then died: nothing of it reached the queue.
      await handle.db.transaction().execute(async (trx) => {
        for (const id of ['11', '12', '13']) await writeJob(trx, counted, { messageId: id });
      });
      // A relay enqueues the three, then dies before the rows leave the outbox (its delete fails,
      // its transaction rolls back): the rows are still there.
      const first = createJobRunner({ redisUrl, prefix });
      runners.push(first);
      const dying = withFaults(handle.db, {
        when: (q) => q.kind === 'delete' && q.table === 'job_outbox',
        error: () => new Error('process killed'),
        times: 1,
      });
      await jobOutboxRelay(dying.db, first, log)();
      expect(dying.thrown()).toBe(1);
      expect(await jobOutboxSize(handle.db)).toBe(3);
      expect(await first.pending(counted.name)).toBe(3);
      // Another process relays them again: the same job ids, so still three jobs.
      const second = createJobRunner({ redisUrl, prefix });
      runners.push(second);
      await jobOutboxRelay(handle.db, second, log)();
      expect(await jobOutboxSize(handle.db)).toBe(0);
      expect(await second.pending(counted.name)).toBe(3);
      const { runs, handler } = counter();
      second.work({ [counted.name]: handler });
      await second.idle();
      expect(Object.fromEntries(runs)).toEqual({ '11': 1, '12': 1, '13': 1 });
    },
  );

  it.skipIf(!redisUrl)('two relays and two workers side by side: every job runs once', async () => {
    const prefix = `t-${randomUUID()}`;
    const { runs, handler } = counter();
    const processes = [0, 1].map(() => {
      const jobs = createJobRunner({ redisUrl, prefix });
      runners.push(jobs);
      jobs.work({ [counted.name]: handler });
      return { jobs, relay: jobOutboxRelay(handle.db, jobs, log) };
    });
    const total = 120;
    // Two producers commit jobs while both relays drain.
    const writes = Array.from({ length: total }, async (_, i) => {
      await writeJob(handle.db, counted, { messageId: String(i + 1) });
      // As the NOTIFY would: both relays wake.
      await Promise.all(processes.map((p) => p.relay()));
    });
    await Promise.all(writes);
    await Promise.all(processes.map((p) => p.relay()));
    for (const p of processes) await p.jobs.idle();
    expect(await jobOutboxSize(handle.db)).toBe(0);
    expect(runs.size).toBe(total);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
  });

  it.skipIf(!redisUrl)(
    'the api killed between the commit of a question and its enqueue: two workers answer it, once',
    async () => {
      const prefix = `t-${randomUUID()}`;
      const creator = await seedCreator(handle.db);
      const seeded = await seedFan(handle.db, creator.creatorId);
      const fan = await handle.db
        .selectFrom('fans')
        .selectAll()
        .where('id', '=', seeded.id)
        .executeTakeFirstOrThrow();
      // The api stores the question, with its answer job, in one transaction…
      const asked = await ask(
        { db: handle.db, storage: { put: async () => {}, remove: async () => {} } },
        {
          creatorId: creator.creatorId,
          fan,
          text: 'When is the gym open?',
          fanName: undefined,
          attachment: null,
        },
      );
      expect(asked.aiWillAnswer).toBe(true);
      const questionId = asked.message.id;
      // …then cannot hand it on: its Redis refuses (the process dies right after). The job stays.
      const dead = createJobRunner({ redisUrl: 'redis://127.0.0.1:1', prefix, enqueueTimeoutMs: 300 });
      runners.push(dead);
      await jobOutboxRelay(handle.db, dead, log)();
      const waiting = await handle.db
        .selectFrom('job_outbox')
        .select('job_key')
        .where('name', '=', ANSWER_QUEUE)
        .execute();
      expect(waiting).toEqual([{ job_key: `answer-${questionId}` }]);
      // Two workers (each relaying) start on the shared Redis.
      const before = openai.requests.length;
      for (let i = 0; i < 2; i++) {
        const jobs = createBackgroundJobs({ db: handle.db, env: env(prefix), log });
        backgrounds.push(
          await startBackground({
            roles: ['relay', 'answer'],
            db: handle.db,
            listen: handle.listen,
            env: env(prefix),
            jobs,
            log,
          }),
        );
      }
      const aiReplies = () =>
        handle.db
          .selectFrom('messages')
          .select('id')
          .where('reply_to', '=', questionId)
          .where('sender', '=', 'Creatorai')
          .execute();
      const end = Date.now() + 20_000;
      while ((await aiReplies()).length === 0 && Date.now() < end)
        await new Promise((r) => setTimeout(r, 25));
      for (const b of backgrounds) await b.idle();
      expect(await aiReplies()).toHaveLength(1);
      // One answer from the model (the fan's memory reads the answered turn with a call of its own).
      const answers = openai.requests
        .slice(before)
        .filter((r) => !String(r.messages[0]?.content ?? '').includes('You keep a short memory of a fan'));
      expect(answers).toHaveLength(1);
      expect(await jobOutboxSize(handle.db)).toBe(0);
    },
  );
});
