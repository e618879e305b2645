import { aiAnswersToday, aiRefusal, answerPriority, startOfUtcDay } from '@fanpilot/core';
import { seedCreator } from '@fanpilot/testkit';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { answerTestbed } from '../test/testbed.ts';
import { type AnswerOutcome, answerQuestion } from './handler.ts';
import { questionsAwaitingAi, requeueAwaitingAnswers } from './recover.ts';

const DAY = 86_400_000;

describe('the daily AI answer budget', () => {
  const bed = answerTestbed(8);

  const status = async (ids: string[]) =>
    (await bed.db.selectFrom('messages').select(['id', 'status']).where('id', 'in', ids).execute()).map(
      (r) => r.status,
    );

  it('defaults to 300 answers a day', async () => {
    const c = await seedCreator(bed.db);
    const bot = await bed.db
      .selectFrom('chatbots')
      .select('daily_ai_budget')
      .where('id', '=', c.chatbotId)
      .executeTakeFirstOrThrow();
    expect(bot.daily_ai_budget).toBe(300);
  });

  it('answers exactly N a day, even when the answers race; the rest wait for the creator, charged nothing', async () => {
    const c = await seedCreator(bed.db, { dailyAiBudget: 5 });
    const ids = await c.ask(12);
    const outcomes = await Promise.all(ids.map((id) => answerQuestion(bed.deps, id)));
    const count = (o: AnswerOutcome) => outcomes.filter((x) => x === o).length;
    expect(count('answered')).toBe(5);
    expect(count('over_budget')).toBe(7);
    expect(await aiAnswersToday(bed.db, c.creatorId)).toBe(5);
    const balance = await bed.db
      .selectFrom('credit_ledger')
      .select(sql<string>`sum(delta)`.as('sum'))
      .where('creator_id', '=', c.creatorId)
      .executeTakeFirstOrThrow();
    expect(Number(balance.sum)).toBe(995);
    expect((await status(ids)).filter((s) => s === 'pending')).toHaveLength(7);
    // Past the budget nothing more is handed to the AI, asked or swept, and no model is called.
    expect(await aiRefusal(bed.db, c.creatorId)).toBe('over_budget');
    expect(await questionsAwaitingAi(bed.db, { creatorId: c.creatorId })).toEqual([]);
    const calls = bed.openai.requests.length;
    const [late] = await c.ask(1);
    expect(await answerQuestion(bed.deps, late!)).toBe('over_budget');
    expect(bed.openai.requests.length).toBe(calls);
  });

  it('starts afresh at midnight UTC: answers dated yesterday do not count, and tomorrow the waiting ones may go', async () => {
    const c = await seedCreator(bed.db, { dailyAiBudget: 2 });
    // Two answers charged yesterday (23:59:59 UTC) do not count today.
    const lastNight = new Date(startOfUtcDay(new Date()).getTime() - 1000);
    await bed.db
      .insertInto('credit_ledger')
      .values([1, 2].map(() => ({ creator_id: c.creatorId, delta: -1, reason: 'ai_answer' as const })))
      .execute();
    await sql`update credit_ledger set created_at = ${lastNight} where creator_id = ${c.creatorId} and reason = 'ai_answer'`.execute(
      bed.db,
    );
    expect(await aiAnswersToday(bed.db, c.creatorId)).toBe(0);
    const ids = await c.ask(3);
    expect(await answerQuestion(bed.deps, ids[0]!)).toBe('answered');
    expect(await answerQuestion(bed.deps, ids[1]!)).toBe('answered');
    expect(await answerQuestion(bed.deps, ids[2]!)).toBe('over_budget');
    // The same clock a day later: today's two answers are yesterday's.
    const tomorrow = () => new Date(Date.now() + DAY);
    expect(await aiAnswersToday(bed.db, c.creatorId, tomorrow())).toBe(0);
    expect(await aiRefusal(bed.db, c.creatorId, tomorrow())).toBeNull();
    expect(await answerQuestion({ ...bed.deps, now: tomorrow }, ids[2]!)).toBe('answered');
  });

  it('a raised budget lets the waiting questions go to the AI again', async () => {
    const c = await seedCreator(bed.db, { dailyAiBudget: 1 });
    const ids = await c.ask(3);
    expect(await answerQuestion(bed.deps, ids[0]!)).toBe('answered');
    expect(await questionsAwaitingAi(bed.db, { creatorId: c.creatorId })).toEqual([]);
    // Only as many as the budget has room for are handed over.
    await bed.db.updateTable('chatbots').set({ daily_ai_budget: 2 }).where('id', '=', c.chatbotId).execute();
    expect(await questionsAwaitingAi(bed.db, { creatorId: c.creatorId })).toEqual([ids[1]]);
    await bed.db.updateTable('chatbots').set({ daily_ai_budget: 3 }).where('id', '=', c.chatbotId).execute();
    expect(await questionsAwaitingAi(bed.db, { creatorId: c.creatorId })).toEqual([ids[1], ids[2]]);
  });

  it("queues each question behind its own creator's earlier ones only (the answer queue's fairness)", async () => {
    const e = await seedCreator(bed.db);
    const b = await seedCreator(bed.db);
    const flood = await e.ask(5);
    const [single] = await b.ask(1);
    expect(await Promise.all(flood.map((id) => answerPriority(bed.db, id)))).toEqual([1, 2, 3, 4, 5]);
    expect(await answerPriority(bed.db, single!)).toBe(1);
    // Answered questions no longer count; neither do the ones older than an hour.
    await answerQuestion(bed.deps, flood[0]!);
    const [next] = await e.ask(1);
    expect(await answerPriority(bed.db, next!)).toBe(5);
    await sql`update messages set created_at = now() - interval '2 hours' where id = ${flood[1]}`.execute(
      bed.db,
    );
    expect(await answerPriority(bed.db, next!)).toBe(4);

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
    await requeueAwaitingAnswers(bed.db, queue, { creatorId: b.creatorId });
    await requeueAwaitingAnswers(bed.db, queue, { creatorId: e.creatorId });
    expect(enqueued).toEqual([
      { id: single, priority: 1 },
      ...[flood[1], flood[2], flood[3], flood[4], next].map((id, i) => ({ id, priority: i + 1 })),
    ]);
  });
});
