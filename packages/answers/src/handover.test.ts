import { ANSWER_QUEUE } from '@fanpilot/contracts';
import { createJobRunner, type JobRunner } from '@fanpilot/jobs';
import { seedCreator } from '@fanpilot/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { answerTestbed } from '../test/testbed.ts';
import { createAnswerHandler } from './handler.ts';
import {
  enqueueAnswer,
  handOverOnFinalFailure,
  questionsAwaitingAi,
  requeueAwaitingAnswers,
} from './recover.ts';

const until = async (check: () => Promise<boolean>, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('answers retried for a time, then handed to the creator', () => {
  const bed = answerTestbed(8);
  let jobs: JobRunner | undefined;

  afterEach(async () => {
    await jobs?.close();
    bed.openai.failNext(0);
  });

  /** The answer queue as the api and worker run it, with a retry budget of `retryForMs`. */
  const startAnswering = (retryForMs: number) => {
    const warnings: string[] = [];
    const handOver = handOverOnFinalFailure(bed.db, { warn: (_o, msg) => warnings.push(msg) });
    jobs = createJobRunner({
      retry: { [ANSWER_QUEUE]: { backoffMs: 20, maxBackoffMs: 80, retryForMs } },
      onError: (queue, _error, data, final) => handOver(queue, data, final),
    });
    jobs.work({
      [ANSWER_QUEUE]: createAnswerHandler(bed.deps),
    });
    return { jobs, warnings };
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
    const { jobs } = startAnswering(5_000);
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
    const { jobs, warnings } = startAnswering(150);
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
    await new Promise((r) => setTimeout(r, 200));
    expect(await aiReplies([id!])).toEqual([]);
    expect(await charges([id!])).toBe(0);
  }, 30_000);
});
