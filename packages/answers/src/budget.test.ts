import { aiAnswersToday, aiRefusal, startOfUtcDay } from '@fanpilot/core';
import { type DbHandle, openTestDb } from '@fanpilot/db';
import { type FakeOpenAI, seedCreator, startFakeOpenAI } from '@fanpilot/knowledge/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AnswerOutcome, answerQuestion } from './handler.ts';
import { answerPriority, questionsAwaitingAi, requeueAwaitingAnswers } from './recover.ts';

// Real PostgreSQL when TEST_DATABASE_URL is set (concurrency needs real connections); PGlite otherwise.
const baseUrl = process.env.TEST_DATABASE_URL;
const DAY = 86_400_000;

describe('the daily AI answer budget', () => {
  let h: DbHandle;
  let closeDb: (() => Promise<void>) | undefined;
  let openai: FakeOpenAI;
  let env: { OPENAI_API_KEY: string; OPENAI_BASE_URL: string };

  beforeAll(async () => {
    const opened = await openTestDb(baseUrl, 8);
    h = opened.handle;
    closeDb = opened.close;
    openai = await startFakeOpenAI();
    env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: openai.baseUrl };
  });
  afterAll(async () => {
    await openai.close();
    await closeDb?.();
  });
  beforeEach(() => {
    openai.requests.length = 0;
  });

  const status = async (ids: string[]) =>
    (await h.db.selectFrom('messages').select(['id', 'status']).where('id', 'in', ids).execute()).map(
      (r) => r.status,
    );

  it('defaults to 300 answers a day', async () => {
    const c = await seedCreator(h.db);
    const bot = await h.db
      .selectFrom('chatbots')
      .select('daily_ai_budget')
      .where('id', '=', c.chatbotId)
      .executeTakeFirstOrThrow();
    expect(bot.daily_ai_budget).toBe(300);
  });

  it('answers exactly N a day, even when the answers race; the rest wait for the creator, charged nothing', async () => {
    const c = await seedCreator(h.db, { dailyAiBudget: 5 });
    const ids = await c.ask(12);
    const outcomes = await Promise.all(ids.map((id) => answerQuestion({ db: h.db, env }, id)));
    const count = (o: AnswerOutcome) => outcomes.filter((x) => x === o).length;
    expect(count('answered')).toBe(5);
    expect(count('over_budget')).toBe(7);
    expect(await aiAnswersToday(h.db, c.creatorId)).toBe(5);
    const balance = await h.db
      .selectFrom('credit_ledger')
      .select(sql<string>`sum(delta)`.as('sum'))
      .where('creator_id', '=', c.creatorId)
      .executeTakeFirstOrThrow();
    expect(Number(balance.sum)).toBe(995);
    expect((await status(ids)).filter((s) => s === 'pending')).toHaveLength(7);
    // Past the budget nothing more is handed to the AI, asked or swept, and no model is called.
    expect(await aiRefusal(h.db, c.creatorId)).toBe('over_budget');
    expect(await questionsAwaitingAi(h.db, { creatorId: c.creatorId })).toEqual([]);
    const calls = openai.requests.length;
    const [late] = await c.ask(1);
    expect(await answerQuestion({ db: h.db, env }, late!)).toBe('over_budget');
    expect(openai.requests.length).toBe(calls);
  });

  it('starts afresh at midnight UTC: answers dated yesterday do not count, and tomorrow the waiting ones may go', async () => {
    const c = await seedCreator(h.db, { dailyAiBudget: 2 });
    // Two answers charged yesterday (23:59:59 UTC) do not count today.
    const lastNight = new Date(startOfUtcDay(new Date()).getTime() - 1000);
    await h.db
      .insertInto('credit_ledger')
      .values([1, 2].map(() => ({ creator_id: c.creatorId, delta: -1, reason: 'ai_answer' as const })))
      .execute();
    await sql`update credit_ledger set created_at = ${lastNight} where creator_id = ${c.creatorId} and reason = 'ai_answer'`.execute(
      h.db,
    );
    expect(await aiAnswersToday(h.db, c.creatorId)).toBe(0);
    const ids = await c.ask(3);
    expect(await answerQuestion({ db: h.db, env }, ids[0]!)).toBe('answered');
    expect(await answerQuestion({ db: h.db, env }, ids[1]!)).toBe('answered');
    expect(await answerQuestion({ db: h.db, env }, ids[2]!)).toBe('over_budget');
    // The same clock a day later: today's two answers are yesterday's.
    const tomorrow = () => new Date(Date.now() + DAY);
    expect(await aiAnswersToday(h.db, c.creatorId, tomorrow())).toBe(0);
    expect(await aiRefusal(h.db, c.creatorId, tomorrow())).toBeNull();
    expect(await answerQuestion({ db: h.db, env, now: tomorrow }, ids[2]!)).toBe('answered');
  });

  it('a raised budget lets the waiting questions go to the AI again', async () => {
    const c = await seedCreator(h.db, { dailyAiBudget: 1 });
    const ids = await c.ask(3);
    expect(await answerQuestion({ db: h.db, env }, ids[0]!)).toBe('answered');
    expect(await questionsAwaitingAi(h.db, { creatorId: c.creatorId })).toEqual([]);
    // Only as many as the budget has room for are handed over.
    await h.db.updateTable('chatbots').set({ daily_ai_budget: 2 }).where('id', '=', c.chatbotId).execute();
    expect(await questionsAwaitingAi(h.db, { creatorId: c.creatorId })).toEqual([ids[1]]);
    await h.db.updateTable('chatbots').set({ daily_ai_budget: 3 }).where('id', '=', c.chatbotId).execute();
    expect(await questionsAwaitingAi(h.db, { creatorId: c.creatorId })).toEqual([ids[1], ids[2]]);
  });

  it("queues each question behind its own creator's earlier ones only (the answer queue's fairness)", async () => {
    const e = await seedCreator(h.db);
    const b = await seedCreator(h.db);
    const flood = await e.ask(5);
    const [single] = await b.ask(1);
    expect(await Promise.all(flood.map((id) => answerPriority(h.db, id)))).toEqual([1, 2, 3, 4, 5]);
    expect(await answerPriority(h.db, single!)).toBe(1);
    // Answered questions no longer count; neither do the ones older than an hour.
    await answerQuestion({ db: h.db, env }, flood[0]!);
    const [next] = await e.ask(1);
    expect(await answerPriority(h.db, next!)).toBe(5);
    await sql`update messages set created_at = now() - interval '2 hours' where id = ${flood[1]}`.execute(
      h.db,
    );
    expect(await answerPriority(h.db, next!)).toBe(4);

    // The requeue (start, sweep, going Offline) gives the same places.
    const enqueued: { id: string; priority?: number }[] = [];
    const queue = {
      enqueue: async (_q: string, data: object, options?: { priority?: number }) => {
        enqueued.push({
          id: (data as { messageId: string }).messageId,
          ...(options?.priority ? { priority: options.priority } : {}),
        });
      },
    };
    await requeueAwaitingAnswers(h.db, queue, { creatorId: b.creatorId });
    await requeueAwaitingAnswers(h.db, queue, { creatorId: e.creatorId });
    expect(enqueued).toEqual([
      { id: single, priority: 1 },
      ...[flood[1], flood[2], flood[3], flood[4], next].map((id, i) => ({ id, priority: i + 1 })),
    ]);
  });
});
