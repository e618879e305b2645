import { randomUUID } from 'node:crypto';
import { ANSWER_QUEUE } from '@fanpilot/contracts';
import { createDb, type DbHandle, migrateToLatest } from '@fanpilot/db';
import { createJobRunner, type JobRunner } from '@fanpilot/jobs';
import { createTestDatabase, type FakeOpenAI, seedCreator, startFakeOpenAI } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnswerHandler } from './handler.ts';
import { enqueueAnswer } from './recover.ts';

// Many answers at once need real connections: PostgreSQL only (TEST_DATABASE_URL); BullMQ on TEST_REDIS_URL.
const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

/** The slow model: every answer takes this long. */
const MODEL_MS = 500;
/** Answers running at once (the worker's concurrency). */
const CONCURRENCY = 4;
/** Creator E's flood. */
const FLOOD = 300;

const modes: [string, string | undefined][] = [['in-process', undefined]];
if (redisUrl) modes.push(['BullMQ', redisUrl]);

describe.runIf(databaseUrl).each(modes)('fair answering (%s runner)', (mode, url) => {
  let h: DbHandle;
  let drop: () => Promise<void>;
  let openai: FakeOpenAI;

  beforeAll(async () => {
    const fresh = await createTestDatabase(databaseUrl!);
    drop = fresh.drop;
    h = createDb({ databaseUrl: fresh.url, poolSize: CONCURRENCY + 4 });
    await migrateToLatest(h.db);
    openai = await startFakeOpenAI();
    openai.answerWith(() => 'An answer.');
  });
  afterAll(async () => {
    await openai?.close();
    await h?.close();
    await drop?.();
  });

  const start = () => {
    const jobs = createJobRunner({ redisUrl: url, prefix: `fp-fair-${randomUUID()}`, backoffMs: 50 });
    jobs.work(
      {
        [ANSWER_QUEUE]: createAnswerHandler({
          db: h.db,
          env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: openai.baseUrl },
        }),
      },
      { concurrency: CONCURRENCY },
    );
    return jobs;
  };

  const answered = async (id: string) =>
    Boolean(
      await h.db
        .selectFrom('messages')
        .select('id')
        .where('reply_to', '=', id)
        .where('sender', '=', 'Creatorai')
        .executeTakeFirst(),
    );

  /** Lets the queue run empty with a fast model (so no jobs are left behind in Redis either). */
  const drain = async (jobs: JobRunner) => {
    openai.respondAfter(0);
    const until = Date.now() + 40_000;
    while ((await jobs.pending(ANSWER_QUEUE)) > 0 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
  };

  /** Asks creator B one question the way the api does; ms until its AI answer is stored (or null). */
  async function timeOneAnswer(
    jobs: JobRunner,
    ask: () => Promise<string[]>,
    giveUpMs = 20_000,
  ): Promise<number | null> {
    const [id] = await ask();
    const t0 = performance.now();
    await enqueueAnswer(h.db, jobs, id!);
    while (performance.now() - t0 < giveUpMs) {
      if (await answered(id!)) return performance.now() - t0;
      await new Promise((r) => setTimeout(r, 10));
    }
    return null;
  }

  it(`${FLOOD} questions to creator E leave creator B's answer within 2 s of its usual time`, async () => {
    openai.respondAfter(MODEL_MS);
    const e = await seedCreator(h.db, { dailyAiBudget: 1000 });
    const b = await seedCreator(h.db);
    const jobs = start();
    try {
      // B's usual time: the same question path with nobody else asking (the better of two).
      const usual = Math.min(
        (await timeOneAnswer(jobs, () => b.ask(1)))!,
        (await timeOneAnswer(jobs, () => b.ask(1)))!,
      );

      // E's flood, each question queued as the api queues it, then B asks once.
      const flood = await e.ask(FLOOD);
      for (const id of flood) await enqueueAnswer(h.db, jobs, id);
      await new Promise((r) => setTimeout(r, MODEL_MS)); // the workers are busy with E now
      const waitingBefore = await jobs.pending(ANSWER_QUEUE);
      const contended = await timeOneAnswer(jobs, () => b.ask(1));
      expect(contended).not.toBeNull();
      const delay = contended! - usual;
      console.log(
        `[fairness ${mode}] model ${MODEL_MS} ms, concurrency ${CONCURRENCY}, ${waitingBefore} of E's ${FLOOD} questions waiting: ` +
          `B's answer in ${Math.round(contended!)} ms (usual ${Math.round(usual)} ms), delay ${Math.round(delay)} ms; ` +
          `first come, first served would be about ${Math.round((waitingBefore * MODEL_MS) / CONCURRENCY)} ms`,
      );
      expect(waitingBefore).toBeGreaterThan(FLOOD / 2);
      expect(delay).toBeLessThan(2000);

      // Nobody starves: E's questions all get their answers too (the model fast again to save time).
      await drain(jobs);
      const done = await h.db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('creator_id', '=', e.creatorId)
        .where('sender', '=', 'Creatorai')
        .executeTakeFirstOrThrow();
      expect(Number(done.n)).toBe(FLOOD);
    } finally {
      await jobs.close();
    }
  }, 60_000);

  it('control: without the priorities (first come, first served) the same flood holds B up past 2 s', async () => {
    openai.respondAfter(MODEL_MS);
    const e = await seedCreator(h.db, { dailyAiBudget: 1000 });
    const b = await seedCreator(h.db);
    const jobs = start();
    try {
      const usual = (await timeOneAnswer(jobs, () => b.ask(1)))!;
      const flood = await e.ask(FLOOD);
      // The same jobs, all at the same priority: the queue is then one shared line.
      for (const id of flood) await enqueueAnswer(h.db, jobs, id, 1);
      const [id] = await b.ask(1);
      const t0 = performance.now();
      await enqueueAnswer(h.db, jobs, id!, 1);
      const limit = usual + 2000;
      let late = true;
      while (performance.now() - t0 < limit + 500) {
        if (await answered(id!)) {
          late = performance.now() - t0 > limit;
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      console.log(
        `[fairness ${mode}] control, one shared line: B's answer ${late ? `still missing after ${Math.round(performance.now() - t0)} ms` : 'in time'} (usual ${Math.round(usual)} ms)`,
      );
      expect(late).toBe(true);
      await drain(jobs);
    } finally {
      openai.respondAfter(0);
      await jobs.close();
    }
  }, 60_000);
});
