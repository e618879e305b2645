import { type FakeOpenAI, startFakeOpenAI } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, FanBrowser, json, onboard, startTestApp, type TestApp } from '../helpers.ts';

interface Gap {
  question: string;
  count: number;
  fans: number;
  lastAskedAt: string;
  questionIds: string[];
}

/**
 * Knowledge gaps end to end: ungrounded questions collected and grouped, answered from the card as a
 * knowledge note the AI uses from then on, sent to the fans who asked, or set aside.
 */
describe('questions your content does not answer', () => {
  let t: TestApp;
  let openai: FakeOpenAI;
  let cookie: string;
  let other: string;

  const gaps = async (who = cookie, username = 'gina') =>
    call(t, 'GET', `/api/creators/username/${username}/knowledge-gaps`, who);
  const openGaps = async () => ((await json(await gaps())) as unknown as { gaps: Gap[] }).gaps;
  const aiReplyTo = (fan: FanBrowser, question: string) =>
    eventually(async () => {
      const messages = await fan.messages('gina');
      const q = messages.find((m) => m.message === question);
      return q && messages.find((m) => m.from === 'Creatorai' && m.replyTo === q.id);
    });

  beforeAll(async () => {
    openai = await startFakeOpenAI();
    // The model answers from the material when the system prompt carries some, and otherwise says
    // so and ends with the tag, as its instructions tell it.
    openai.answerWith((r) => {
      const system = String(r.messages[0]?.content ?? '');
      if (system.includes('Question: How do I tune a ukulele?')) return 'Tune it G C E A, as in the notes.';
      return 'I could not find that in the material; Gina will see your question. [not in knowledge]';
    });
    t = await startTestApp({
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: openai.baseUrl },
      ingestInProcess: true,
    });
    cookie = await onboard(t, 'gina');
    other = await onboard(t, 'hugo');
  });
  afterAll(async () => {
    await t?.close();
    await openai?.close();
  });

  let fanA: FanBrowser;
  let fanB: FanBrowser;

  it('collects questions the AI could not ground, grouped by what they ask, without the tag in the reply', async () => {
    fanA = new FanBrowser(t);
    fanB = new FanBrowser(t);
    expect((await fanA.ask('gina', 'How do I tune a ukulele?')).status).toBe(200);
    const reply = await aiReplyTo(fanA, 'How do I tune a ukulele?');
    expect(reply.message).toBe('I could not find that in the material; Gina will see your question.');
    expect(reply.sources ?? []).toEqual([]);
    expect((await fanB.ask('gina', 'how should I tune my ukulele')).status).toBe(200);
    expect((await fanA.ask('gina', 'Do you sell gift cards?')).status).toBe(200);
    await aiReplyTo(fanB, 'how should I tune my ukulele');
    await aiReplyTo(fanA, 'Do you sell gift cards?');

    const list = await openGaps();
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ question: 'how should I tune my ukulele', count: 2, fans: 2 });
    expect(list[1]).toMatchObject({ question: 'Do you sell gift cards?', count: 1, fans: 1 });
    expect(Number.isNaN(Date.parse(list[0]!.lastAskedAt))).toBe(false);
  });

  it("keeps each creator's gaps their own, and refuses bad input with a clear error", async () => {
    expect((await gaps(other)).status).toBe(403);
    expect(((await json(await gaps(other, 'hugo'))) as unknown as { gaps: Gap[] }).gaps).toEqual([]);
    const [ukulele] = await openGaps();
    const foreign = await call(t, 'POST', '/api/creators/username/hugo/knowledge-gaps/answer', other, {
      questionIds: ukulele!.questionIds,
      question: 'x',
      answer: 'y',
    });
    expect(foreign.status).toBe(400);
    expect(await json(foreign)).toMatchObject({ error: 'no_open_gaps' });
    expect(
      (
        await call(t, 'POST', '/api/creators/username/hugo/knowledge-gaps/dismiss', other, {
          questionIds: ukulele!.questionIds,
        })
      ).status,
    ).toBe(200);
    expect(await openGaps()).toHaveLength(2); // hugo's dismiss closed nothing of gina's

    for (const body of [
      { questionIds: ukulele!.questionIds, question: 'q', answer: '   ' },
      { questionIds: ['abc'], question: 'q', answer: 'a' },
      { questionIds: [], question: 'q', answer: 'a' },
      { question: 'q', answer: 'a' },
    ]) {
      const res = await call(t, 'POST', '/api/creators/username/gina/knowledge-gaps/answer', cookie, body);
      expect(res.status).toBe(400);
      expect(await json(res)).toHaveProperty('message');
    }
  });

  it('answering one saves a knowledge note the AI then answers from, and tells the fans who asked', async () => {
    const [ukulele] = await openGaps();
    const res = await call(t, 'POST', '/api/creators/username/gina/knowledge-gaps/answer', cookie, {
      questionIds: ukulele!.questionIds,
      question: 'How do I tune a ukulele?',
      answer: 'Standard tuning is G C E A, with the G string tuned high.',
      sendToFans: true,
    });
    expect(res.status).toBe(200);
    const saved = (await json(res)) as unknown as {
      item: { id: string; type: string; fileName: string };
      closed: number;
      sentTo: number;
    };
    expect(saved).toMatchObject({
      closed: 2,
      sentTo: 2,
      item: { type: 'file', fileName: 'Q&A - How do I tune a ukulele.txt' },
    });
    for (const fan of [fanA, fanB]) {
      const messages = await fan.messages('gina');
      expect(
        messages.some((m) => m.from === 'creator' && m.message.startsWith('Standard tuning is G C E A')),
      ).toBe(true);
    }
    const list = await openGaps();
    expect(list.map((g) => g.question)).toEqual(['Do you sell gift cards?']);

    // Once the note is ready, the same question is answered from it, and is no gap.
    await eventually(async () => {
      const item = await t.db.db
        .selectFrom('knowledge_items')
        .select('status')
        .where('id', '=', saved.item.id)
        .executeTakeFirst();
      return item?.status === 'completed' || item?.status === 'active';
    }, 20_000);
    const fanC = new FanBrowser(t);
    expect((await fanC.ask('gina', 'How do I tune a ukulele?')).status).toBe(200);
    const answer = await aiReplyTo(fanC, 'How do I tune a ukulele?');
    expect(answer.message).toContain('Tune it G C E A');
    expect((await openGaps()).map((g) => g.question)).toEqual(['Do you sell gift cards?']);
  });

  it('a gap set aside leaves the card', async () => {
    const [gift] = await openGaps();
    const res = await call(t, 'POST', '/api/creators/username/gina/knowledge-gaps/dismiss', cookie, {
      questionIds: gift!.questionIds,
    });
    expect(await json(res)).toEqual({ closed: 1 });
    expect(await openGaps()).toEqual([]);
  });
});
