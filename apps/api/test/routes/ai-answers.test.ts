import { startBackground } from '@fanpilot/background';
import { ANSWER_QUEUE } from '@fanpilot/contracts';
import {
  type FakeOpenAI,
  seedKnowledge,
  startFakeOpenAI,
  withFaults,
  writesAiReply,
} from '@fanpilot/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  eventually,
  FanBrowser,
  json,
  onboard,
  sent,
  startTestApp,
  type TestApp,
  type TestAppOptions,
} from '../helpers.ts';

async function creatorId(t: TestApp, username: string) {
  const row = await t.db.db
    .selectFrom('creators')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Gives the creator's chatbot instructions and one ready knowledge chunk, as ingestion would. */
async function teach(t: TestApp, username: string) {
  const id = await creatorId(t, username);
  const bot = await t.db.db
    .updateTable('chatbots')
    .set({ instructions: 'Always end with the words: Bake on!' })
    .where('creator_id', '=', id)
    .returning('id')
    .executeTakeFirstOrThrow();
  await seedKnowledge(t.db.db, bot.id, {
    url: `https://${username}.example/starter`,
    title: 'Starter care',
    content: 'Feed your sourdough starter twice a day with equal weights of flour and water.',
  });
  return id;
}

/** The model calls that wrote answers (not the fan memory's extraction after them). */
const answering = (openai: FakeOpenAI) =>
  openai.requests.filter((r) => !String(r.messages[0]?.content).startsWith('You keep a short memory'));

async function usage(t: TestApp, username: string, cookie: string) {
  return json(await call(t, 'GET', `/api/creators/username/${username}/usage`, cookie));
}

async function aiReplies(t: TestApp, questionId: string) {
  return t.db.db
    .selectFrom('messages')
    .selectAll()
    .where('reply_to', '=', questionId)
    .where('sender', '=', 'Creatorai')
    .execute();
}

async function charges(t: TestApp, id: string) {
  return t.db.db
    .selectFrom('credit_ledger')
    .selectAll()
    .where('creator_id', '=', id)
    .where('reason', '=', 'ai_answer')
    .execute();
}

function suite(label: string, options: () => TestAppOptions, enabled = true) {
  describe.runIf(enabled)(`AI answers while Offline (${label})`, () => {
    let t: TestApp;
    let openai: FakeOpenAI;
    let crashes = 0;

    beforeAll(async () => {
      openai = await startFakeOpenAI();
      t = await startTestApp({
        ...options(),
        env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: openai.baseUrl, ASK_RATE_LIMIT_PER_IP: '1000' },
        // The first answer write of the run crashes; the job's retry must still answer exactly once.
        answeringDb: (db) =>
          withFaults(db, {
            when: (query) => crashes > 0 && writesAiReply(query),
            error: () => {
              crashes--;
              return new Error('worker killed between model call and write');
            },
          }).db,
      });
    });
    afterAll(async () => {
      await t.close();
      await openai.close();
    });
    beforeEach(() => {
      openai.requests.length = 0;
      openai.failNext(0);
      openai.answerWith(() => 'Feed it twice a day. Bake on!');
    });

    it("an Offline creator's fan gets exactly one AI answer, grounded in the creator's knowledge", async () => {
      const cookie = await onboard(t, 'olga');
      const id = await teach(t, 'olga');
      const fan = new FanBrowser(t);
      crashes = 1;

      const res = await fan.ask('olga', 'How often should I feed my sourdough starter?', { fanName: 'Finn' });
      expect(res.status).toBe(200);
      const asked = await json(res);
      expect(asked).toMatchObject({ success: true, aiWillAnswer: true });
      const question = (asked.message as unknown as { id: string }).id;

      const chat = await eventually(async () => {
        const messages = await fan.messages('olga');
        return messages.some((m) => m.from === 'Creatorai') ? messages : null;
      });
      expect(chat.map((m) => [m.from, m.status])).toEqual([
        ['fan', 'answered'],
        ['Creatorai', null],
      ]);
      const answer = chat[1]!;
      expect(answer.message).toBe('Feed it twice a day. Bake on!');
      expect(answer.sources).toEqual([
        {
          title: 'Starter care',
          source: 'https://olga.example/starter',
          kind: 'web',
          url: 'https://olga.example/starter#:~:text=Feed%20your%20sourdough%20starter%20twice%20a%20day%20with',
        },
      ]);
      expect(answer.replyTo).toBe(question);

      // The crash made the model answer twice; the fan still has one answer and paid one credit.
      expect(crashes).toBe(0);
      expect(answering(openai)).toHaveLength(2);
      const prompt = openai.requests[0]!;
      expect(prompt.model).toBe('gpt-4o-mini');
      const system = String(prompt.messages[0]!.content);
      expect(system).toContain('Always end with the words: Bake on!');
      expect(system).toContain('Feed your sourdough starter twice a day');
      expect(system).toContain('Starter care (https://olga.example/starter)');
      expect(prompt.messages.at(-1)).toMatchObject({
        role: 'user',
        content: 'How often should I feed my sourdough starter?',
      });

      // Running the job again, as a redelivery would, changes nothing.
      await t.jobs.enqueue(ANSWER_QUEUE, { messageId: question }, { jobId: `again-${question}` });
      await t.background.idle();
      expect(await aiReplies(t, question)).toHaveLength(1);
      expect(await charges(t, id)).toHaveLength(1);
      expect(answering(openai)).toHaveLength(2);

      expect(await usage(t, 'olga', cookie)).toEqual({
        creditsUsed: 1,
        creditsRemaining: 999,
        freeCredits: 1000,
        creditsPurchased: 0,
        aiAnswersToday: 1,
        dailyAiBudget: 300,
        aiBudgetReached: false,
      });
    });

    it('an Online creator: the question waits, /api/answer answers it, the fan sees it on the next poll', async () => {
      const cookie = await onboard(t, 'oscar');
      await teach(t, 'oscar');
      const toggled = await call(t, 'POST', '/api/toggle-status', cookie, { creator: 'oscar' });
      expect(await json(toggled)).toEqual({
        success: true,
        isOnline: true,
        statusText: 'Online - Creator responding',
      });
      const fan = new FanBrowser(t);
      const asked = await json(await fan.ask('oscar', 'How often should I feed my sourdough starter?'));
      expect(asked.aiWillAnswer).toBe(false);
      const question = (asked.message as unknown as { id: string }).id;
      await t.background.idle();
      expect(openai.requests).toHaveLength(0);
      expect((await fan.messages('oscar')).map((m) => m.status)).toEqual(['pending']);

      const answered = await call(t, 'POST', '/api/answer', cookie, {
        creator: 'oscar',
        messageId: question,
        response: '  Twice a day!  ',
      });
      expect(answered.status).toBe(200);
      expect(await json(answered)).toMatchObject({
        success: true,
        answeredMessageId: question,
        message: { from: 'creator', message: 'Twice a day!', replyTo: question, status: null },
      });
      const chat = await fan.messages('oscar');
      expect(chat.map((m) => [m.from, m.message, m.status])).toEqual([
        ['fan', 'How often should I feed my sourdough starter?', 'answered'],
        ['creator', 'Twice a day!', null],
      ]);

      const twice = await call(t, 'POST', '/api/answer', cookie, {
        creator: 'oscar',
        messageId: question,
        response: 'Again',
      });
      expect(twice.status).toBe(409);
      expect((await json(twice)).error).toBe('already_answered');
      expect(await fan.messages('oscar')).toHaveLength(2);
    });

    it('going Offline hands the waiting questions to the AI', async () => {
      const cookie = await onboard(t, 'otto');
      await teach(t, 'otto');
      await call(t, 'POST', '/api/toggle-status', cookie, { creator: 'otto' });
      const fan = new FanBrowser(t);
      await fan.ask('otto', 'How often should I feed my sourdough starter?');
      await t.background.idle();
      expect(openai.requests).toHaveLength(0);
      const off = await json(await call(t, 'POST', '/api/toggle-status', cookie, { creator: 'otto' }));
      expect(off).toEqual({ success: true, isOnline: false, statusText: 'Offline - AI responding' });
      await eventually(async () => (await fan.messages('otto')).some((m) => m.from === 'Creatorai'));
    });

    it('when the credits run out the AI stops and the question stays pending', async () => {
      const cookie = await onboard(t, 'opal');
      const id = await teach(t, 'opal');
      await t.db.db
        .insertInto('credit_ledger')
        .values({ creator_id: id, delta: -999, reason: 'adjustment' })
        .execute();
      const fan = new FanBrowser(t);
      await fan.ask('opal', 'How often should I feed my sourdough starter?');
      await eventually(async () => (await fan.messages('opal')).some((m) => m.from === 'Creatorai'));

      const second = await json(await fan.ask('opal', 'And what flour should the starter get?'));
      expect(second.aiWillAnswer).toBe(false);
      await t.background.idle();
      const chat = await fan.messages('opal');
      expect(chat.map((m) => [m.from, m.status])).toEqual([
        ['fan', 'answered'],
        ['Creatorai', null],
        ['fan', 'pending'],
      ]);
      expect(await usage(t, 'opal', cookie)).toMatchObject({ creditsUsed: 1, creditsRemaining: 0 });
    });

    it('a provider unreachable after the retries leaves the question pending', async () => {
      await onboard(t, 'orla');
      const id = await teach(t, 'orla');
      openai.failNext(1000, 503);
      const fan = new FanBrowser(t);
      const asked = await json(await fan.ask('orla', 'How often should I feed my sourdough starter?'));
      // Five attempts with exponential backoff, then the job gives up.
      await eventually(async () => openai.requests.length >= 5);
      await t.background.idle();
      expect(openai.requests.length).toBe(5);
      expect(await aiReplies(t, (asked.message as unknown as { id: string }).id)).toHaveLength(0);
      expect(await charges(t, id)).toHaveLength(0);
      expect((await fan.messages('orla')).map((m) => m.status)).toEqual(['pending']);
    });

    it('on start, questions left pending by a crash are handed to the AI again', async () => {
      await onboard(t, 'omar');
      const id = await teach(t, 'omar');
      const fan = new FanBrowser(t);
      // A question stored just before a crash, never enqueued.
      const fanRow = await t.db.db
        .insertInto('fans')
        .values({ creator_id: id, fan_key: fan.fanId, name: 'Lost' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const lost = await t.db.db
        .insertInto('messages')
        .values({
          creator_id: id,
          fan_id: fanRow.id,
          sender: 'fan',
          body: 'How often should I feed my sourdough starter?',
          status: 'pending',
          fan_name: 'Lost',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // A restart: the runtime's start-up requeue (the app's own consumer answers it).
      await startBackground({
        roles: ['requeue'],
        db: t.db.db,
        jobs: t.jobs,
        env: t.config.env,
        log: t.app.log,
      });
      await eventually(async () => (await aiReplies(t, lost.id)).length === 1);
      expect(await charges(t, id)).toHaveLength(1);
    });
  });
}

suite('in-process jobs', () => ({}));
suite(
  'BullMQ on Redis',
  () => ({ redisUrl: process.env.TEST_REDIS_URL }),
  Boolean(process.env.TEST_REDIS_URL),
);

describe('AI answers without a model key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("quotes the creator's own material as a quote, or says nothing matched and hands the question over", async () => {
    const cookie = await onboard(t, 'quinn');
    await teach(t, 'quinn');
    const fan = new FanBrowser(t);
    await fan.ask('quinn', 'How often should I feed my sourdough starter?');
    const chat = await eventually(async () => {
      const messages = await fan.messages('quinn');
      return messages.some((m) => m.from === 'Creatorai') ? messages : null;
    });
    const quote = chat.find((m) => m.from === 'Creatorai')!;
    expect(quote.message).toBe(
      '“Feed your sourdough starter twice a day with equal weights of flour and water.” [1]',
    );
    expect(quote.sources).toMatchObject([{ title: 'Starter care', kind: 'web' }]);

    // Nothing of Quinn's matches: the fan still gets an AI reply, charged like any other, once, and
    // the question waits for Quinn.
    const asked = await sent(await fan.ask('quinn', 'Do you like jazz?'));
    expect(asked.aiWillAnswer).toBe(true);
    const after = await eventually(async () => {
      const messages = await fan.messages('quinn');
      return messages.filter((m) => m.from === 'Creatorai').length === 2 ? messages : null;
    });
    expect(after.map((m) => [m.from, m.status])).toEqual([
      ['fan', 'answered'],
      ['Creatorai', null],
      ['fan', 'pending'],
      ['Creatorai', null],
    ]);
    expect(after.at(-1)).toMatchObject({
      from: 'Creatorai',
      replyTo: asked.message.id,
      message:
        "I couldn't find this in Quinn Tester's material, so I've passed your question on to Quinn Tester, who will answer you personally.",
    });
    expect(after[2]).toMatchObject({ handedToCreator: true });
    expect(after.at(-1)?.sources ?? []).toEqual([]);
    expect(await usage(t, 'quinn', cookie)).toMatchObject({ creditsUsed: 2, creditsRemaining: 998 });
    await t.background.idle();
    expect(await usage(t, 'quinn', cookie)).toMatchObject({ creditsUsed: 2, creditsRemaining: 998 });
  });

  it('a creator with no knowledge at all: the Offline AI still answers every question', async () => {
    const cookie = await onboard(t, 'quentin');
    const fan = new FanBrowser(t);
    const asked = await sent(await fan.ask('quentin', 'Anyone there?'));
    expect(asked.aiWillAnswer).toBe(true);
    const chat = await eventually(async () => {
      const messages = await fan.messages('quentin');
      return messages.some((m) => m.from === 'Creatorai') ? messages : null;
    });
    expect(chat.map((m) => [m.from, m.status])).toEqual([
      ['fan', 'pending'],
      ['Creatorai', null],
    ]);
    expect(chat[1]!.message).toContain("I couldn't find this in Quentin Tester's material");
    expect(await usage(t, 'quentin', cookie)).toMatchObject({ creditsUsed: 1, aiAnswersToday: 1 });
  });
});
