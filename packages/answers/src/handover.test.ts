import { ANSWER_QUEUE } from '@fanpilot/contracts';
import { type DbHandle, openTestDb } from '@fanpilot/db';
import { createJobRunner, type JobRunner } from '@fanpilot/jobs';
import { type FakeOpenAI, seedCreator, startFakeOpenAI } from '@fanpilot/knowledge/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAnswerHandler } from './handler.ts';
import {
  enqueueAnswer,
  handOverOnFinalFailure,
  questionsAwaitingAi,
  requeueAwaitingAnswers,
} from './recover.ts';

const baseUrl = process.env.TEST_DATABASE_URL;

const until = async (check: () => Promise<boolean>, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('answers retried for a time, then handed to the creator', () => {
  let h: DbHandle;
  let closeDb: (() => Promise<void>) | undefined;
  let openai: FakeOpenAI;
  let jobs: JobRunner | undefined;

  beforeAll(async () => {
    const opened = await openTestDb(baseUrl, 8);
    h = opened.handle;
    closeDb = opened.close;
    openai = await startFakeOpenAI();
  });
  afterEach(async () => {
    await jobs?.close();
    openai.failNext(0);
  });
  afterAll(async () => {
    await openai.close();
    await closeDb?.();
  });

  /** The answer queue as the api and worker run it, with a retry budget of `retryForMs`. */
  const startAnswering = (retryForMs: number) => {
    const warnings: string[] = [];
    const handOver = handOverOnFinalFailure(h.db, { warn: (_o, msg) => warnings.push(msg) });
    jobs = createJobRunner({
      retry: { [ANSWER_QUEUE]: { backoffMs: 20, maxBackoffMs: 80, retryForMs } },
      onError: (queue, _error, data, final) => handOver(queue, data, final),
    });
    jobs.work({
      [ANSWER_QUEUE]: createAnswerHandler({
        db: h.db,
        env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: openai.baseUrl },
      }),
    });
    return { jobs, warnings };
  };
  const rows = (ids: string[]) =>
    h.db
      .selectFrom('messages')
      .select(['id', 'status', 'ai_handed_over_at'])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
  const aiReplies = async (ids: string[]) =>
    (
      await h.db
        .selectFrom('messages')
        .select('reply_to')
        .where('sender', '=', 'Creatorai')
        .where('reply_to', 'in', ids)
        .execute()
    ).map((r) => String(r.reply_to));
  const charges = async (ids: string[]) =>
    (
      await h.db
        .selectFrom('credit_ledger')
        .select('message_id')
        .where('reason', '=', 'ai_answer')
        .where('message_id', 'in', ids)
        .execute()
    ).length;

  it('a model that recovers within the budget: every question answered once, charged once', async () => {
    const creator = await seedCreator(h.db);
    const { jobs } = startAnswering(5_000);
    openai.failNext(1_000_000);
    const ids = await creator.ask(5);
    for (const id of ids) await enqueueAnswer(h.db, jobs, id);
    await until(async () => openai.requests.length >= 15);
    openai.failNext(0);
    await until(async () => (await rows(ids)).every((r) => r.status === 'answered'));
    expect((await aiReplies(ids)).sort()).toEqual([...ids].sort());
    expect(await charges(ids)).toBe(ids.length);
    expect((await rows(ids)).every((r) => r.ai_handed_over_at === null)).toBe(true);
  }, 30_000);

  it('a model down past the budget: the question goes to the creator and no sweep hands it back', async () => {
    const creator = await seedCreator(h.db);
    const { jobs, warnings } = startAnswering(150);
    openai.failNext(1_000_000);
    const [id] = await creator.ask(1);
    await enqueueAnswer(h.db, jobs, id!);
    await until(async () => (await rows([id!]))[0]?.ai_handed_over_at != null);
    expect((await rows([id!]))[0]).toMatchObject({ status: 'pending' });
    expect(warnings).toContain('the AI gave up on a question; the creator answers it');
    // It waits for the creator: the requeue paths leave it alone even once the model is back.
    openai.failNext(0);
    expect(await questionsAwaitingAi(h.db, { creatorId: creator.creatorId })).not.toContain(id);
    expect(await requeueAwaitingAnswers(h.db, jobs, { creatorId: creator.creatorId })).toBe(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(await aiReplies([id!])).toEqual([]);
    expect(await charges([id!])).toBe(0);
  }, 30_000);
});
