import { randomUUID } from 'node:crypto';
import { statusRepository } from '@fanpilot/core';
import { seedCreator, seedKnowledge, withFaults, writesAiReply } from '@fanpilot/testkit';
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { answerTestbed } from '../test/testbed.ts';
import { answerQuestion, createAnswerHandler } from './handler.ts';
import { questionsAwaitingAi, requeueAwaitingAnswers } from './recover.ts';

describe('answering a fan question', () => {
  const bed = answerTestbed(6);
  beforeEach(() => {
    bed.openai.answerWith((r) => `Twice a day. (${r.model})`);
  });

  /** An onboarded, Offline creator with a chatbot, credits, knowledge, a fan and one pending question. */
  async function fixture(options: { credits?: number; model?: string; online?: boolean } = {}) {
    const db = bed.db;
    const tag = randomUUID().slice(0, 8);
    const seeded = await seedCreator(db, {
      ...options,
      instructions: 'Always answer like a patient baking coach.',
      initialMessages: ['Hello! Ask me about bread.'],
    });
    const creator = { id: seeded.creatorId };
    const bot = { id: seeded.chatbotId };
    await seedKnowledge(db, bot.id, {
      url: 'https://coach.example/starter',
      title: 'Starter care',
      content: 'Feed your sourdough starter twice a day with equal weights of flour and water.',
    });
    const fan = await db
      .insertInto('fans')
      .values({ creator_id: creator.id, fan_key: `mobile_fan_${tag}`, name: 'Finn' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ask = async (body: string) =>
      (
        await db
          .insertInto('messages')
          .values({
            creator_id: creator.id,
            fan_id: fan.id,
            sender: 'fan',
            body,
            status: 'pending',
            fan_name: 'Finn',
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const question = await ask('How often should I feed my sourdough starter?');
    const state = async () => {
      const replies = await db.selectFrom('messages').selectAll().where('reply_to', '=', question).execute();
      const charges = await db
        .selectFrom('credit_ledger')
        .selectAll()
        .where('creator_id', '=', creator.id)
        .where('reason', '=', 'ai_answer')
        .execute();
      const q = await db
        .selectFrom('messages')
        .select('status')
        .where('id', '=', question)
        .executeTakeFirstOrThrow();
      return { replies, charges, status: q.status };
    };
    return { creatorId: creator.id, chatbotId: bot.id, question, ask, state };
  }

  it('answers once with the model, the prompt carrying instructions and retrieved knowledge, and charges one credit', async () => {
    const f = await fixture();
    const handler = createAnswerHandler(bed.deps);
    await handler({ messageId: f.question }, { attempt: 1 });

    expect(bed.openai.requests).toHaveLength(1);
    const sent = bed.openai.requests[0]!;
    expect(sent.model).toBe('gpt-4o-mini');
    expect(sent.temperature).toBeCloseTo(0.3);
    expect(sent.headers.authorization).toBe('Bearer test-key');
    const system = String(sent.messages[0]!.content);
    expect(sent.messages[0]!.role).toBe('system');
    expect(system).toContain('Always answer like a patient baking coach.');
    expect(system).toContain('Feed your sourdough starter twice a day');
    expect(system).toContain('Starter care (https://coach.example/starter)');
    expect(sent.messages[1]).toMatchObject({ role: 'assistant', content: 'Hello! Ask me about bread.' });
    expect(sent.messages.at(-1)).toMatchObject({
      role: 'user',
      content: 'How often should I feed my sourdough starter?',
    });

    const s = await f.state();
    expect(s.status).toBe('answered');
    expect(s.replies).toHaveLength(1);
    expect(s.replies[0]).toMatchObject({ sender: 'Creatorai', fan_name: 'Finn', status: null });
    // The citation travels as data, not in the text: a link to the passage on the page.
    expect(s.replies[0]!.body).toBe('Twice a day. (gpt-4o-mini)');
    expect(s.replies[0]!.sources).toEqual([
      {
        title: 'Starter care',
        source: 'https://coach.example/starter',
        kind: 'web',
        url: expect.stringMatching(/^https:\/\/coach\.example\/starter#:~:text=Feed%20your%20sourdough/),
      },
    ]);
    expect(s.charges).toHaveLength(1);
    expect(s.charges[0]).toMatchObject({ delta: -1, message_id: f.question });
  });

  it('a second run of the same job changes nothing and calls no model', async () => {
    const f = await fixture();
    const handler = createAnswerHandler(bed.deps);
    await handler({ messageId: f.question });
    await handler({ messageId: f.question });
    expect(bed.openai.requests).toHaveLength(1);
    const s = await f.state();
    expect(s.replies).toHaveLength(1);
    expect(s.charges).toHaveLength(1);
  });

  it('runs racing each other still leave one answer and one credit', async () => {
    const f = await fixture();
    const handler = createAnswerHandler(bed.deps);
    await Promise.all([1, 2, 3, 4].map(() => handler({ messageId: f.question })));
    const s = await f.state();
    expect(s.replies).toHaveLength(1);
    expect(s.charges).toHaveLength(1);
    expect(s.status).toBe('answered');
  });

  it('a crash between the model call and the write leaves nothing; the retry answers once', async () => {
    const f = await fixture();
    const faulty = withFaults(bed.db, {
      when: writesAiReply,
      error: () => new Error('worker killed'),
      times: 1,
    });
    const handler = createAnswerHandler({ ...bed.deps, db: faulty.db });
    await expect(handler({ messageId: f.question }, { attempt: 1 })).rejects.toThrow('worker killed');
    const between = await f.state();
    expect(between).toMatchObject({ replies: [], charges: [], status: 'pending' });
    await handler({ messageId: f.question }, { attempt: 2 });
    await handler({ messageId: f.question }, { attempt: 3 });
    const s = await f.state();
    expect(s.replies).toHaveLength(1);
    expect(s.charges).toHaveLength(1);
  });

  it('stays silent while the creator is Online, even if they go Online during the model call', async () => {
    const online = await fixture({ online: true });
    expect(await answerQuestion(bed.deps, online.question)).toBe('creator_online');
    expect(bed.openai.requests).toHaveLength(0);

    const f = await fixture();
    // The creator goes Online while the model is writing the answer.
    bed.openai.answerWith(async () => {
      await statusRepository(bed.db).toggle(f.creatorId);
      return 'Twice a day.';
    });
    const outcome = await answerQuestion(bed.deps, f.question);
    expect(outcome).toBe('creator_online');
    expect(await f.state()).toMatchObject({ replies: [], charges: [], status: 'pending' });
  });

  it('stops when the credits run out, leaving the question pending', async () => {
    const f = await fixture({ credits: 1 });
    const second = await f.ask('And how warm should the kitchen be?');
    expect(await answerQuestion(bed.deps, f.question)).toBe('answered');
    expect(await answerQuestion(bed.deps, second)).toBe('no_credits');
    const left = await bed.db
      .selectFrom('messages')
      .select('status')
      .where('id', '=', second)
      .executeTakeFirst();
    expect(left?.status).toBe('pending');
    expect(bed.openai.requests).toHaveLength(1);
    expect(await questionsAwaitingAi(bed.db, { creatorId: f.creatorId })).toEqual([]);
  });

  it('the last credit goes to one of two racing questions only', async () => {
    const f = await fixture({ credits: 1 });
    const second = await f.ask('What flour should I use for my sourdough?');
    const outcomes = await Promise.all([
      answerQuestion(bed.deps, f.question),
      answerQuestion(bed.deps, second),
    ]);
    expect(outcomes.filter((o) => o === 'answered')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'no_credits')).toHaveLength(1);
    const balance = await bed.db
      .selectFrom('credit_ledger')
      .select((eb) => eb.fn.sum<string>('delta').as('sum'))
      .where('creator_id', '=', f.creatorId)
      .executeTakeFirst();
    expect(Number(balance?.sum)).toBe(0);
  });

  it('throws on a provider outage (so the job retries) and writes nothing', async () => {
    const f = await fixture();
    bed.openai.failNext(1, 503);
    const handler = createAnswerHandler(bed.deps);
    await expect(handler({ messageId: f.question })).rejects.toThrow();
    expect(await f.state()).toMatchObject({ replies: [], charges: [], status: 'pending' });
    await handler({ messageId: f.question });
    expect((await f.state()).replies).toHaveLength(1);
  });

  it('without a key for the provider, quotes the creator plainly; with nothing relevant, says so and hands over', async () => {
    const f = await fixture({ model: 'claude-3-haiku-20240307' });
    expect(await answerQuestion(bed.deps, f.question)).toBe('answered');
    expect(bed.openai.requests).toHaveLength(0);
    const s = await f.state();
    expect(s.replies[0]!.body).toBe(
      '“Feed your sourdough starter twice a day with equal weights of flour and water.” [1]',
    );
    expect(s.replies[0]!.sources).toMatchObject([
      { title: 'Starter care', source: 'https://coach.example/starter', kind: 'web' },
    ]);
    expect(s.charges).toHaveLength(1);

    // Nothing of the creator's matches: a fallback reply, stored and charged like any AI answer,
    // and the question waits for the creator.
    const unrelated = await f.ask('Quantum chromodynamics?');
    expect(await answerQuestion({ db: bed.db, env: {} }, unrelated)).toBe('answered');
    const reply = await bed.db
      .selectFrom('messages')
      .selectAll()
      .where('reply_to', '=', unrelated)
      .executeTakeFirstOrThrow();
    expect(reply.sender).toBe('Creatorai');
    expect(reply.body).toBe(
      "I couldn't find this in Bea Baker's material, so I've passed your question on to Bea Baker, who will answer you personally.",
    );
    expect(reply.sources).toEqual([]);
    const question = await bed.db
      .selectFrom('messages')
      .select(['status', 'ai_handed_over_at', 'knowledge_gap_at'])
      .where('id', '=', unrelated)
      .executeTakeFirstOrThrow();
    expect(question.status).toBe('pending');
    expect(question.ai_handed_over_at).not.toBeNull();
    expect(question.knowledge_gap_at).not.toBeNull();
    const charges = () =>
      bed.db
        .selectFrom('credit_ledger')
        .select(['delta'])
        .where('creator_id', '=', f.creatorId)
        .where('reason', '=', 'ai_answer')
        .execute();
    expect(await charges()).toHaveLength(2);
    // At most once: running the job again changes nothing.
    expect(await answerQuestion({ db: bed.db, env: {} }, unrelated)).toBe('already_answered');
    expect(await charges()).toHaveLength(2);
    expect(
      await bed.db.selectFrom('messages').select('id').where('reply_to', '=', unrelated).execute(),
    ).toHaveLength(1);
  });

  it('with nothing to quote and no credit left, leaves the question pending and charges nothing', async () => {
    const f = await fixture({ model: 'claude-3-haiku-20240307', credits: 0 });
    const unrelated = await f.ask('Quantum chromodynamics?');
    expect(await answerQuestion({ db: bed.db, env: {} }, unrelated)).toBe('no_credits');
    const left = await bed.db
      .selectFrom('messages')
      .select('status')
      .where('id', '=', unrelated)
      .executeTakeFirstOrThrow();
    expect(left.status).toBe('pending');
  });

  it('drops malformed payloads and ignores unknown or non-fan messages', async () => {
    const handler = createAnswerHandler(bed.deps);
    await handler({ messageId: 'drop table' });
    await handler(null);
    expect(await answerQuestion(bed.deps, '999999999')).toBe('not_found');
    const f = await fixture();
    await answerQuestion(bed.deps, f.question);
    const reply = (await f.state()).replies[0]!;
    expect(await answerQuestion(bed.deps, reply.id)).toBe('not_a_question');
  });

  it('finds and re-enqueues what awaits the AI, once per question', async () => {
    const f = await fixture();
    const online = await fixture({ online: true });
    const broke = await fixture({ credits: 0 });
    const ids = await questionsAwaitingAi(bed.db);
    expect(ids).toContain(f.question);
    expect(ids).not.toContain(online.question);
    expect(ids).not.toContain(broke.question);
    const enqueued: { queue: string; data: object; jobId?: string }[] = [];
    const n = await requeueAwaitingAnswers(
      bed.db,
      {
        enqueue: async (queue, data, options) => {
          enqueued.push({ queue, data, ...(options?.jobId ? { jobId: options.jobId } : {}) });
        },
      },
      { creatorId: f.creatorId },
    );
    expect(n).toBe(1);
    expect(enqueued).toEqual([
      { queue: 'fan-answer', data: { messageId: f.question }, jobId: `answer-${f.question}` },
    ]);
  });

  it('finds the questions awaiting the AI within an age window: not too young, not too old', async () => {
    const fresh = await fixture();
    const stranded = await fixture();
    const ancient = await fixture();
    // created_at is the database's own (never written by the app); set here to age the questions.
    const age = (id: string, ms: number) =>
      sql`update messages set created_at = ${new Date(Date.now() - ms)} where id = ${id}`.execute(bed.db);
    await age(stranded.question, 2 * 60_000);
    await age(ancient.question, 3 * 3_600_000);
    const mine = [fresh.question, stranded.question, ancient.question];
    const window = { olderThanMs: 30_000, newerThanMs: 3_600_000 };
    expect((await questionsAwaitingAi(bed.db, window)).filter((id) => mine.includes(id))).toEqual([
      stranded.question,
    ]);
  });
});
