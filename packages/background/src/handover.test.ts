import { enqueueAnswer, questionsAwaitingAi, requeueAwaitingAnswers } from '@fanpilot/answers';
import type { DbHandle } from '@fanpilot/db';
import { type FakeOpenAI, openTestDb, seedCreator, startFakeOpenAI } from '@fanpilot/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Background, type BackgroundEnv, createBackgroundJobs, startBackground } from './index.ts';

const until = async (check: () => Promise<boolean>, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('answers retried for a time, then handed to the creator', () => {
  let handle: DbHandle;
  let closeDb: () => Promise<void>;
  let openai: FakeOpenAI;
  beforeAll(async () => {
    ({ handle, close: closeDb } = await openTestDb(process.env.TEST_DATABASE_URL, 8));
    openai = await startFakeOpenAI();
  });
  afterAll(async () => {
    await openai?.close();
    await closeDb?.();
  });
  const bed = {
    get db() {
      return handle.db;
    },
    get openai() {
      return openai;
    },
  };
  let background: Background | undefined;

  afterEach(async () => {
    await background?.close();
    bed.openai.failNext(0);
  });

  /** The answer queue as the api and the worker run it (one runtime), with a retry budget of `retryForMs`. */
  const startAnswering = async (retryForMs: number) => {
    const warnings: string[] = [];
    const log = { info: () => {}, error: () => {}, warn: (_o: object, msg: string) => warnings.push(msg) };
    const env: BackgroundEnv = {
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: bed.openai.baseUrl,
      JOBS_PREFIX: 'unused',
      JOBS_ATTEMPTS: 5,
      JOBS_BACKOFF_MS: 20,
      ANSWER_RETRY_BACKOFF_MS: 20,
      ANSWER_RETRY_MAX_BACKOFF_MS: 80,
      ANSWER_RETRY_FOR_MS: retryForMs,
    };
    const jobs = createBackgroundJobs({ db: bed.db, env, log });
    background = await startBackground({ roles: ['answer'], db: bed.db, env, jobs, log });
    return { jobs, warnings, background };
  };
  const rows = (ids: string[]) =>
    bed.db
      .selectFrom('messages')
      .select(['id', 'status', 'ai_handed_over_at'])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
  const aiReplies = async (ids: string[]) =>
    (
      await bed.db
        .selectFrom('messages')
        .select('reply_to')
        .where('sender', '=', 'Creatorai')
        .where('reply_to', 'in', ids)
        .execute()
    ).map((r) => String(r.reply_to));
  const charges = async (ids: string[]) =>
    (
      await bed.db
        .selectFrom('credit_ledger')
        .select('message_id')
        .where('reason', '=', 'ai_answer')
        .where('message_id', 'in', ids)
        .execute()
    ).length;

  it('a model that recovers within the budget: every question answered once, charged once', async () => {
    const creator = await seedCreator(bed.db);
    const { jobs } = await startAnswering(5_000);
    bed.openai.failNext(1_000_000);
    const ids = await creator.ask(5);
    for (const id of ids) await enqueueAnswer(bed.db, jobs, id);
    await until(async () => bed.openai.requests.length >= 15);
    bed.openai.failNext(0);
    await until(async () => (await rows(ids)).every((r) => r.status === 'answered'));
    expect((await aiReplies(ids)).sort()).toEqual([...ids].sort());
    expect(await charges(ids)).toBe(ids.length);
    expect((await rows(ids)).every((r) => r.ai_handed_over_at === null)).toBe(true);
  }, 30_000);

  it('a model down past the budget: the question goes to the creator and no sweep hands it back', async () => {
    const creator = await seedCreator(bed.db);
    const { jobs, warnings, background } = await startAnswering(150);
    bed.openai.failNext(1_000_000);
    const [id] = await creator.ask(1);
    await enqueueAnswer(bed.db, jobs, id!);
    await until(async () => (await rows([id!]))[0]?.ai_handed_over_at != null);
    expect((await rows([id!]))[0]).toMatchObject({ status: 'pending' });
    expect(warnings).toContain('the AI gave up on a question; the creator answers it');
    // It waits for the creator: the requeue paths leave it alone even once the model is back.
    bed.openai.failNext(0);
    expect(await questionsAwaitingAi(bed.db, { creatorId: creator.creatorId })).not.toContain(id);
    expect(await requeueAwaitingAnswers(bed.db, jobs, { creatorId: creator.creatorId })).toBe(0);
    await background.idle();
    expect(await aiReplies([id!])).toEqual([]);
    expect(await charges([id!])).toBe(0);
  }, 30_000);
});
