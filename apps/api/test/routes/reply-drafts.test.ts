import { adjustCredits } from '@fanpilot/core';
import { type FakeOpenAI, seedKnowledge, startFakeOpenAI } from '@fanpilot/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  eventually,
  FanBrowser,
  json,
  onboardedCreator,
  startTestApp,
  type TestApp,
} from '../helpers.ts';

// Issue 27: AI-drafted replies. The AI drafts the creator's reply to a pending question from the
// creator's content; the creator edits and sends it as their own (one credit) or discards it (free);
// a draft never reaches a fan unsent.

const QUESTION = 'How often should I feed my sourdough starter?';

async function balance(t: TestApp, creatorId: string) {
  const row = await t.db.db
    .selectFrom('credit_totals')
    .select(['balance', 'used'])
    .where('creator_id', '=', creatorId)
    .executeTakeFirstOrThrow();
  return { balance: Number(row.balance), used: Number(row.used) };
}

/** The draft a draft call answered with. */
async function draftOf(res: Response) {
  return ((await res.json()) as { draft: { status: string; text: string; covered: boolean } }).draft;
}

async function draftCharges(t: TestApp, creatorId: string) {
  return t.db.db
    .selectFrom('credit_ledger')
    .select(['message_id', 'delta'])
    .where('creator_id', '=', creatorId)
    .where('reason', '=', 'ai_draft')
    .execute();
}

describe('AI-drafted replies', () => {
  let t: TestApp;
  let openai: FakeOpenAI;
  beforeAll(async () => {
    openai = await startFakeOpenAI();
    t = await startTestApp({ env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: openai.baseUrl } });
  });
  afterAll(async () => {
    await t.close();
    await openai.close();
  });
  beforeEach(() => {
    openai.requests.length = 0;
    openai.answerWith((r) => {
      const n = /\[(\d+)\] Starter care/.exec(String(r.messages[0]!.content))?.[1];
      return n
        ? `Twice a day [${n}], with equal weights of flour and water.`
        : "Your material doesn't say. [not in knowledge]";
    });
  });

  /** An Online creator who taught the bot, and a fan whose question waits for them. */
  async function onlineWithQuestion(name: string, question = QUESTION) {
    const creator = await onboardedCreator(t, name);
    await seedKnowledge(t.db.db, creator.chatbotId, {
      url: `https://${name}.example/starter`,
      title: 'Starter care',
      content: 'Feed your sourdough starter twice a day with equal weights of flour and water.',
    });
    const toggled = await json(
      await call(t, 'POST', '/api/toggle-status', creator.cookie, { creator: name }),
    );
    expect(toggled).toMatchObject({ isOnline: true });
    const fan = new FanBrowser(t);
    expect((await fan.ask(name, question)).status).toBe(200);
    const asked = (await fan.messages(name)).find((m) => m.from === 'fan')!;
    const draftPath = `/api/creators/username/${name}/messages/${asked.id}/draft`;
    return { creator, fan, questionId: asked.id, draftPath };
  }

  it('drafts from the content once, shows it only to the creator, and charges one credit when sent edited', async () => {
    const { creator, fan, questionId, draftPath } = await onlineWithQuestion('dora');
    const before = await balance(t, creator.creatorId);

    const first = await call(t, 'POST', draftPath, creator.cookie);
    expect(first.status).toBe(200);
    expect(await json(first)).toEqual({
      draft: {
        questionId,
        text: 'Twice a day, with equal weights of flour and water.',
        sources: [expect.objectContaining({ title: 'Starter care', kind: 'web' })],
        covered: true,
        model: 'gpt-4o-mini',
        status: 'open',
      },
    });
    // The model's request carried the creator's knowledge and the fan's question.
    expect(openai.requests).toHaveLength(1);
    expect(JSON.stringify(openai.requests[0]!.messages)).toContain('Feed your sourdough starter');
    expect(JSON.stringify(openai.requests[0]!.messages)).toContain(QUESTION);

    // Read back, never written twice.
    const again = await json(await call(t, 'POST', draftPath, creator.cookie));
    expect(again.draft).toMatchObject({
      status: 'open',
      text: 'Twice a day, with equal weights of flour and water.',
    });
    expect(openai.requests).toHaveLength(1);

    // Drafting costs nothing, and the fan sees no trace of it.
    expect(await balance(t, creator.creatorId)).toEqual(before);
    const seen = await fan.messages('dora');
    expect(seen.map((m) => m.from)).toEqual(['fan']);
    expect(JSON.stringify(seen)).not.toContain('Twice a day');

    // The creator edits and sends it as their own message.
    const sent = await call(t, 'POST', '/api/send-message', creator.cookie, {
      fanId: fan.fanId,
      creatorUsername: 'dora',
      message: 'Twice a day, equal weights of flour and water. Happy baking!',
      draftFor: questionId,
    });
    expect(sent.status).toBe(200);
    expect(await json(sent)).toMatchObject({ answeredMessageId: questionId, message: { from: 'creator' } });
    expect(await balance(t, creator.creatorId)).toEqual({
      balance: before.balance - 1,
      used: before.used + 1,
    });
    expect(await draftCharges(t, creator.creatorId)).toEqual([{ message_id: questionId, delta: -1 }]);
    const after = await fan.messages('dora');
    expect(after.map((m) => [m.from, m.message])).toEqual([
      ['fan', QUESTION],
      ['creator', 'Twice a day, equal weights of flour and water. Happy baking!'],
    ]);

    // Sent: the question is answered, the draft can be neither drafted again nor discarded.
    const redraft = await call(t, 'POST', draftPath, creator.cookie);
    expect(redraft.status).toBe(409);
    expect(await json(redraft)).toEqual({
      error: 'already_answered',
      message: 'This question has already been answered.',
    });
    const discard = await call(t, 'DELETE', draftPath, creator.cookie);
    expect(discard.status).toBe(409);
    expect((await json(discard)).error).toBe('draft_sent');
    expect(await draftCharges(t, creator.creatorId)).toHaveLength(1);
  });

  it('a discarded draft costs nothing; answering a question with its draft through /api/answer costs one', async () => {
    const { creator, fan, questionId, draftPath } = await onlineWithQuestion('dina');
    const before = await balance(t, creator.creatorId);
    expect((await call(t, 'POST', draftPath, creator.cookie)).status).toBe(200);
    const discarded = await call(t, 'DELETE', draftPath, creator.cookie);
    expect(discarded.status).toBe(200);
    expect((await json(discarded)).draft).toMatchObject({ status: 'discarded' });
    // Not offered again, and a reply that still names it is the creator's own, free.
    expect((await draftOf(await call(t, 'POST', draftPath, creator.cookie))).status).toBe('discarded');
    expect(openai.requests).toHaveLength(1);
    const answered = await call(t, 'POST', '/api/answer', creator.cookie, {
      creator: 'dina',
      messageId: questionId,
      response: 'Twice daily.',
      draftFor: questionId,
    });
    expect(answered.status).toBe(200);
    expect(await balance(t, creator.creatorId)).toEqual(before);

    // A second question, drafted and answered with its draft through /api/answer.
    expect(
      (await fan.ask('dina', 'Should the flour and water for my sourdough starter be warm?')).status,
    ).toBe(200);
    const second = (await fan.messages('dina')).filter((m) => m.from === 'fan').at(-1)!;
    const secondPath = `/api/creators/username/dina/messages/${second.id}/draft`;
    openai.answerWith(() => 'Keep it at room temperature [1].');
    openai.requests.length = 0;
    expect((await json(await call(t, 'POST', secondPath, creator.cookie))).draft).toMatchObject({
      text: 'Keep it at room temperature.',
      covered: true,
    });
    const withDraft = await call(t, 'POST', '/api/answer', creator.cookie, {
      creator: 'dina',
      messageId: second.id,
      response: 'Keep it at room temperature.',
      draftFor: second.id,
    });
    expect(withDraft.status).toBe(200);
    expect(await balance(t, creator.creatorId)).toEqual({
      balance: before.balance - 1,
      used: before.used + 1,
    });
    expect(await draftCharges(t, creator.creatorId)).toEqual([{ message_id: second.id, delta: -1 }]);
  });

  it('says when the content does not cover the question, and such a draft is never charged', async () => {
    const { creator, fan, questionId, draftPath } = await onlineWithQuestion(
      'dana',
      'What is your favourite film?',
    );
    const before = await balance(t, creator.creatorId);
    const res = await json(await call(t, 'POST', draftPath, creator.cookie));
    expect(res.draft).toEqual({
      questionId,
      text: '',
      sources: [],
      covered: false,
      model: 'gpt-4o-mini',
      status: 'open',
    });
    await call(t, 'POST', '/api/send-message', creator.cookie, {
      fanId: fan.fanId,
      creatorUsername: 'dana',
      message: 'Probably Paddington 2.',
      draftFor: questionId,
    });
    expect(await balance(t, creator.creatorId)).toEqual(before);
  });

  it('refuses bad input, other creators, answered questions, no credits and a model outage in words', async () => {
    const { creator, fan, questionId, draftPath } = await onlineWithQuestion('doug');
    const other = await onboardedCreator(t, 'dirk');

    // Another creator, signed out, and another creator's question under one's own name.
    expect((await call(t, 'POST', draftPath, other.cookie)).status).toBe(403);
    expect((await call(t, 'POST', draftPath, '')).status).toBe(401);
    const foreign = await call(
      t,
      'POST',
      `/api/creators/username/dirk/messages/${questionId}/draft`,
      other.cookie,
    );
    expect(foreign.status).toBe(404);
    expect(await json(foreign)).toEqual({ error: 'not_found', message: 'No such message.' });
    expect((await call(t, 'DELETE', draftPath, other.cookie)).status).toBe(403);

    // Bad ids, unknown messages, and a message that is no fan's question.
    expect(
      (await call(t, 'POST', '/api/creators/username/doug/messages/abc/draft', creator.cookie)).status,
    ).toBe(400);
    expect(
      (await call(t, 'POST', '/api/creators/username/doug/messages/999999999/draft', creator.cookie)).status,
    ).toBe(404);
    const direct = await json(
      await call(t, 'POST', '/api/send-message', creator.cookie, {
        fanId: fan.fanId,
        creatorUsername: 'doug',
        message: 'Quick note before I answer.',
      }),
    );
    // (That message answered the pending question: ask again for a pending one.)
    const notQuestion = await call(
      t,
      'POST',
      `/api/creators/username/doug/messages/${(direct.message as unknown as { id: string }).id}/draft`,
      creator.cookie,
    );
    expect(notQuestion.status).toBe(400);
    expect((await json(notQuestion)).error).toBe('not_a_fan_message');
    const answered = await call(t, 'POST', draftPath, creator.cookie);
    expect(answered.status).toBe(409);
    expect(
      (await call(t, 'DELETE', draftPath, creator.cookie)).status,
      'no draft was ever written for it',
    ).toBe(404);

    // The model down: a readable 502, nothing kept; the next try drafts.
    expect((await fan.ask('doug', QUESTION)).status).toBe(200);
    const pending = (await fan.messages('doug')).filter((m) => m.from === 'fan').at(-1)!;
    const pendingPath = `/api/creators/username/doug/messages/${pending.id}/draft`;
    openai.failNext(1, 503);
    const down = await call(t, 'POST', pendingPath, creator.cookie);
    expect(down.status).toBe(502);
    expect(await json(down)).toEqual({
      error: 'model_unavailable',
      message: 'The AI could not draft a reply just now. Write your reply, or try again in a moment.',
    });
    expect(
      await t.db.db.selectFrom('reply_drafts').selectAll().where('question_id', '=', pending.id).execute(),
    ).toEqual([]);

    // No credits: no draft (the creator answers personally), in words.
    const { balance: left } = await balance(t, creator.creatorId);
    await adjustCredits(t.db.db, creator.creatorId, -left);
    const broke = await call(t, 'POST', pendingPath, creator.cookie);
    expect(broke.status).toBe(402);
    expect(await json(broke)).toEqual({
      error: 'no_credits',
      message:
        'No credits left: an AI draft costs one credit when you send it. Add credits in Billing, or write your reply yourself.',
    });
    await adjustCredits(t.db.db, creator.creatorId, left);
    const drafted = await eventually(async () => {
      const r = await call(t, 'POST', pendingPath, creator.cookie);
      return r.status === 200 ? json(r) : undefined;
    });
    expect(drafted.draft).toMatchObject({ covered: true, status: 'open' });
  });

  it("a draft of one fan's question is never used or charged by a message to another fan", async () => {
    const { creator, questionId, draftPath } = await onlineWithQuestion('dave');
    expect((await call(t, 'POST', draftPath, creator.cookie)).status).toBe(200);
    const before = await balance(t, creator.creatorId);
    const other = new FanBrowser(t);
    expect((await other.ask('dave', 'Hello!')).status).toBe(200);
    const res = await call(t, 'POST', '/api/send-message', creator.cookie, {
      fanId: other.fanId,
      creatorUsername: 'dave',
      message: 'Twice a day.',
      draftFor: questionId,
    });
    expect(res.status).toBe(200);
    expect(await balance(t, creator.creatorId)).toEqual(before);
    expect((await draftOf(await call(t, 'POST', draftPath, creator.cookie))).status).toBe('open');
  });
});

describe('AI-drafted replies by the embedded answerer (no model key)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("drafts a reply the creator would send: the material's sentences, no quotation and no '— from' line; sources apart", async () => {
    const creator = await onboardedCreator(t, 'lena');
    await seedKnowledge(t.db.db, creator.chatbotId, {
      url: 'https://lena.example/starter',
      title: 'Starter care (4 pages)',
      content: 'I feed my sourdough starter twice a day with equal weights of flour and water.',
    });
    await call(t, 'POST', '/api/toggle-status', creator.cookie, { creator: 'lena' });
    const fan = new FanBrowser(t);
    expect((await fan.ask('lena', QUESTION)).status).toBe(200);
    const asked = (await fan.messages('lena')).find((m) => m.from === 'fan')!;
    const res = await call(
      t,
      'POST',
      `/api/creators/username/lena/messages/${asked.id}/draft`,
      creator.cookie,
    );
    expect(res.status).toBe(200);
    const { draft } = (await res.json()) as {
      draft: { text: string; covered: boolean; model: string | null; sources: { title: string }[] };
    };
    expect(draft).toMatchObject({ covered: true, model: null });
    expect(draft.text).toBe('I feed my sourdough starter twice a day with equal weights of flour and water.');
    expect(draft.text).not.toMatch(/[“”]|— from/);
    expect(draft.sources.map((s) => s.title)).toEqual(['Starter care (4 pages)']);
  });
});
