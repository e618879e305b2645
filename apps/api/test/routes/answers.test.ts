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

// Issue 25, the product half over HTTP: who answers, "Try your chatbot", corrections, ratings.

async function count(t: TestApp, table: 'messages' | 'credit_ledger' | 'fans', creatorId: string) {
  const row = await t.db.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('creator_id', '=', creatorId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const teach = (t: TestApp, chatbotId: string, username: string) =>
  seedKnowledge(t.db.db, chatbotId, {
    url: `https://${username}.example/starter`,
    title: 'Starter care',
    content: 'Feed your sourdough starter twice a day with equal weights of flour and water.',
  });

describe('without a model key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('says the embedded answerer answers and what to set', async () => {
    const maya = await onboardedCreator(t, 'maya');
    const res = await call(t, 'GET', `/api/creators/username/${maya.username}/answerer`, maya.cookie);
    expect(await json(res)).toEqual({
      model: 'gpt-4o-mini',
      providerModel: 'gpt-4o-mini',
      provider: 'openai',
      configured: false,
      keyVariable: 'OPENAI_API_KEY',
    });
    const other = await onboardedCreator(t, 'mallory');
    expect(
      (await call(t, 'GET', `/api/creators/username/${maya.username}/answerer`, other.cookie)).status,
    ).toBe(403);
    expect((await call(t, 'GET', `/api/creators/username/${maya.username}/answerer`, '')).status).toBe(401);
  });

  it('the playground quotes the material or hands over, free and outside the inbox, and is rate-limited', async () => {
    const pia = await onboardedCreator(t, 'pia');
    await teach(t, pia.chatbotId, pia.username);
    const path = `/api/creators/username/${pia.username}/playground`;
    const before = await Promise.all(
      ['messages', 'credit_ledger', 'fans'].map((x) => count(t, x as 'fans', pia.creatorId)),
    );
    const res = await call(t, 'POST', path, pia.cookie, {
      question: 'How often should I feed my sourdough starter?',
    });
    expect(res.status).toBe(200);
    const tried = await json(res);
    expect(tried).toMatchObject({
      answer: '“Feed your sourdough starter twice a day with equal weights of flour and water.” [1]',
      sources: [{ title: 'Starter care', kind: 'web' }],
      handedOver: false,
      model: null,
      correction: null,
    });
    expect((tried.passages as unknown[]).length).toBeGreaterThan(0);
    const hi = await json(await call(t, 'POST', path, pia.cookie, { question: 'Hi Pia!' }));
    expect(hi).toMatchObject({ handedOver: true, sources: [] });
    expect(hi.answer).toContain("I couldn't find this in Pia Tester's material");
    const after = await Promise.all(
      ['messages', 'credit_ledger', 'fans'].map((x) => count(t, x as 'fans', pia.creatorId)),
    );
    expect(after).toEqual(before);

    // Bad input and someone else's playground.
    expect((await call(t, 'POST', path, pia.cookie, { question: '   ' })).status).toBe(400);
    expect((await call(t, 'POST', path, pia.cookie, { question: 'x'.repeat(2001) })).status).toBe(400);
    expect((await call(t, 'POST', path, pia.cookie, '{nope')).status).toBe(400);
    const other = await onboardedCreator(t, 'pete');
    expect((await call(t, 'POST', path, other.cookie, { question: 'Hi' })).status).toBe(403);

    // Twenty a minute per creator.
    let limited: Response | undefined;
    for (let i = 0; i < 25 && !limited; i++) {
      const r = await call(t, 'POST', path, pia.cookie, { question: `Question ${i}?` });
      if (r.status === 429) limited = r;
      else expect(r.status).toBe(200);
    }
    expect(limited?.status).toBe(429);
    expect(await json(limited!)).toMatchObject({
      error: expect.any(String),
      message: expect.stringMatching(/wait/),
    });
  });

  it('ratings: only the fan who owns the answer rates it, once (changeable); the creator sees it and the poor ones', async () => {
    const rae = await onboardedCreator(t, 'rae');
    await teach(t, rae.chatbotId, rae.username);
    const fan = new FanBrowser(t);
    await fan.ask(rae.username, 'How often should I feed my sourdough starter?');
    const answer = await eventually(async () =>
      (await fan.messages(rae.username)).find((m) => m.from === 'Creatorai'),
    );
    const rate = (who: FanBrowser, body: unknown, id = answer.id) =>
      fetch(`${t.url}/api/chatlog/fan/${encodeURIComponent(who.fanId)}/messages/${id}/rating`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...(who.cookie ? { cookie: who.cookie } : {}) },
        body: JSON.stringify(body),
      });
    expect(await json(await rate(fan, { rating: 'up' }))).toEqual({ rating: 'up', comment: null });
    expect(await json(await rate(fan, { rating: 'down', comment: '  Too vague  ' }))).toEqual({
      rating: 'down',
      comment: 'Too vague',
    });
    // The fan's chat and the creator's conversation show it; the poor list has it.
    expect((await fan.messages(rae.username)).find((m) => m.id === answer.id)).toMatchObject({
      rating: { rating: 'down', comment: 'Too vague' },
    });
    const conversation = await json(
      await call(
        t,
        'GET',
        `/api/creators/username/${rae.username}/fans/${fan.fanId}/conversation`,
        rae.cookie,
      ),
    );
    expect(
      (conversation.messages as { id: string; rating?: unknown }[]).find((m) => m.id === answer.id)?.rating,
    ).toEqual({
      rating: 'down',
      comment: 'Too vague',
    });
    const poor = await json(
      await call(t, 'GET', `/api/creators/username/${rae.username}/poor-answers`, rae.cookie),
    );
    expect(poor.answers).toEqual([
      expect.objectContaining({
        answerId: answer.id,
        question: 'How often should I feed my sourdough starter?',
        comment: 'Too vague',
        fanId: fan.fanId,
        corrected: false,
      }),
    ]);

    // Hostile and bad input.
    const stranger = new FanBrowser(t, fan.fanId); // the fan id without the fan's cookie
    expect((await rate(stranger, { rating: 'up' })).status).toBe(403);
    expect((await rate(fan, { rating: 'meh' })).status).toBe(400);
    expect((await rate(fan, { rating: 'up', comment: 'x'.repeat(501) })).status).toBe(400);
    const question = (await fan.messages(rae.username)).find((m) => m.from === 'fan')!;
    expect((await rate(fan, { rating: 'up' }, question.id)).status).toBe(404);
    expect((await rate(fan, { rating: 'up' }, '999999999')).status).toBe(404);
    // Taking it back empties the poor list (once the change feed has told this api of the fan's
    // write: a poll in between may be answered from the list kept for the version before).
    expect(await json(await rate(fan, { rating: null }))).toEqual({ rating: null, comment: null });
    await expect
      .poll(
        async () =>
          (
            await json(
              await call(t, 'GET', `/api/creators/username/${rae.username}/poor-answers`, rae.cookie),
            )
          ).answers,
      )
      .toEqual([]);
  });

  it('a correction changes the next fan’s answer, can be sent to the fan who got the wrong one, and can be deleted', async () => {
    const cal = await onboardedCreator(t, 'cal');
    await teach(t, cal.chatbotId, cal.username);
    const first = new FanBrowser(t);
    await first.ask(cal.username, 'How often should I feed my sourdough starter?');
    const wrong = await eventually(async () =>
      (await first.messages(cal.username)).find((m) => m.from === 'Creatorai'),
    );
    const path = `/api/creators/username/${cal.username}/corrections`;
    const res = await call(t, 'POST', path, cal.cookie, {
      question: 'How often should I feed my sourdough starter?',
      answer: 'Every 12 hours, with rye flour.',
      messageId: wrong.id,
      sendToFan: true,
    });
    expect(res.status).toBe(200);
    const saved = await json(res);
    expect(saved).toMatchObject({ sentTo: 1, correction: { correctedMessageId: wrong.id } });
    expect((await first.messages(cal.username)).at(-1)).toMatchObject({
      from: 'creator',
      message: 'Every 12 hours, with rye flour.',
    });

    // The next fan, in other words, gets the correction.
    const next = new FanBrowser(t);
    await next.ask(cal.username, 'how often do you feed the sourdough starter');
    const fixed = await eventually(async () =>
      (await next.messages(cal.username)).find((m) => m.from === 'Creatorai'),
    );
    expect(fixed.message).toBe('Every 12 hours, with rye flour. [1]');
    expect(fixed.sources).toEqual([{ title: "Cal Tester's own answer", source: 'Answer by Cal Tester' }]);

    // Listed; someone else's answer or correction is not found; bad input is a 400.
    const list = await json(await call(t, 'GET', path, cal.cookie));
    expect((list.corrections as { id: string }[]).map((c) => c.id)).toEqual([
      (saved.correction as { id: string }).id,
    ]);
    const other = await onboardedCreator(t, 'cora');
    const foreign = await call(
      t,
      'POST',
      `/api/creators/username/${other.username}/corrections`,
      other.cookie,
      {
        question: 'Q?',
        answer: 'A.',
        messageId: wrong.id,
      },
    );
    expect(foreign.status).toBe(404);
    expect((await call(t, 'POST', path, other.cookie, { question: 'Q?', answer: 'A.' })).status).toBe(403);
    expect((await call(t, 'POST', path, cal.cookie, { question: ' ', answer: 'A.' })).status).toBe(400);
    expect(
      (await call(t, 'POST', path, cal.cookie, { question: 'Q?', answer: 'A.', messageId: 'abc' })).status,
    ).toBe(400);
    const id = (saved.correction as { id: string }).id;
    expect(
      (await call(t, 'DELETE', `/api/creators/username/${other.username}/corrections/${id}`, other.cookie))
        .status,
    ).toBe(404);
    expect((await call(t, 'DELETE', `${path}/not-a-uuid`, cal.cookie)).status).toBe(400);
    expect((await call(t, 'DELETE', `${path}/${id}`, cal.cookie)).status).toBe(200);
    expect((await json(await call(t, 'GET', path, cal.cookie))).corrections).toEqual([]);
  });

  it('a correction reaches every fan who got the wrong answer to its question or a paraphrase, once', async () => {
    const dee = await onboardedCreator(t, 'dee');
    await teach(t, dee.chatbotId, dee.username);
    const aiAnswer = async (fan: FanBrowser, question: string) => {
      await fan.ask(dee.username, question);
      return eventually(async () => (await fan.messages(dee.username)).find((m) => m.from === 'Creatorai'));
    };
    const asker = new FanBrowser(t);
    const wrong = await aiAnswer(asker, 'How often should I feed my sourdough starter?');
    // The same question in other words (by meaning, with the local encoder), and by its words.
    const paraphrase = new FanBrowser(t);
    await aiAnswer(paraphrase, 'How frequently do you feed a sourdough starter?');
    const sameWords = new FanBrowser(t);
    await aiAnswer(sameWords, 'how often should i feed the sourdough starter??');
    // Another question about the same starter, and one about something else: not sent.
    const other = new FanBrowser(t);
    await aiAnswer(other, 'What flour should I feed my sourdough starter?');
    const unrelated = new FanBrowser(t);
    await aiAnswer(unrelated, 'Do you sell sourdough bread at the market?');

    const path = `/api/creators/username/${dee.username}/corrections`;
    const saved = await json(
      await call(t, 'POST', path, dee.cookie, {
        question: 'How often should I feed my sourdough starter?',
        answer: 'Every 12 hours, with rye flour.',
        messageId: wrong.id,
      }),
    );
    expect(saved.sentTo).toBe(0);
    const id = (saved.correction as { id: string }).id;
    const fans = await json(await call(t, 'GET', `${path}/${id}/fans`, dee.cookie));
    expect((fans.fans as { fanId: string; sent: boolean }[]).map((f) => [f.fanId, f.sent]).sort()).toEqual(
      [
        [asker.fanId, false],
        [paraphrase.fanId, false],
        [sameWords.fanId, false],
      ].sort(),
    );

    const sent = await call(t, 'POST', `${path}/${id}/send`, dee.cookie);
    expect(sent.status).toBe(200);
    expect(await json(sent)).toEqual({ sentTo: 3 });
    for (const fan of [asker, paraphrase, sameWords]) {
      expect((await fan.messages(dee.username)).at(-1)).toMatchObject({
        from: 'creator',
        message: 'Every 12 hours, with rye flour.',
      });
    }
    for (const fan of [other, unrelated]) {
      expect((await fan.messages(dee.username)).some((m) => m.from === 'creator')).toBe(false);
    }
    // Once: sending again (or saving it with "send" again unchanged) sends nothing more…
    expect(await json(await call(t, 'POST', `${path}/${id}/send`, dee.cookie))).toEqual({ sentTo: 0 });
    const listed = await json(await call(t, 'GET', `${path}/${id}/fans`, dee.cookie));
    expect((listed.fans as { sent: boolean }[]).every((f) => f.sent)).toBe(true);
    // …until the creator changes the answer: then each of them gets the new one.
    const changed = await json(
      await call(t, 'POST', path, dee.cookie, {
        question: 'How often should I feed my sourdough starter?',
        answer: 'Every 12 hours; rye or wheat flour both work.',
        sendToFan: true,
      }),
    );
    expect(changed.sentTo).toBe(3);
    expect((await paraphrase.messages(dee.username)).at(-1)?.message).toBe(
      'Every 12 hours; rye or wheat flour both work.',
    );

    // Only the owner, only their own corrections.
    const eve = await onboardedCreator(t, 'eve');
    expect((await call(t, 'GET', `${path}/${id}/fans`, eve.cookie)).status).toBe(403);
    const evePath = `/api/creators/username/${eve.username}/corrections`;
    expect((await call(t, 'GET', `${evePath}/${id}/fans`, eve.cookie)).status).toBe(404);
    expect((await call(t, 'POST', `${evePath}/${id}/send`, eve.cookie)).status).toBe(404);
    expect((await call(t, 'POST', `${path}/not-a-uuid/send`, dee.cookie)).status).toBe(400);
  });
  it('a correction closes the open gaps it answers: its own question and paraphrases, nothing else', async () => {
    const fay = await onboardedCreator(t, 'fay');
    await teach(t, fay.chatbotId, fay.username);
    // Every open gap question, one per id (the card groups them by their words).
    const gaps = async () =>
      (
        (
          await json(
            await call(t, 'GET', `/api/creators/username/${fay.username}/knowledge-gaps`, fay.cookie),
          )
        ).gaps as { question: string; questionIds: string[] }[]
      ).flatMap((g) => g.questionIds);
    const ask = async (question: string) => {
      const fan = new FanBrowser(t);
      await fan.ask(fay.username, question);
      const messages = await eventually(async () => {
        const all = await fan.messages(fay.username);
        return all.some((m) => m.from === 'Creatorai') ? all : undefined;
      });
      return messages.find((m) => m.from === 'Creatorai')!;
    };
    const handedOver = await ask('What time does the farmers market open on Saturday?');
    await ask('what time does the farmers market open on saturday');
    await ask('On Saturdays, when do the farmers market doors open?');
    const other = await ask('Can I pay with a credit card at your stall?');
    await eventually(async () => ((await gaps()).length === 4 ? true : undefined));

    const res = await call(t, 'POST', `/api/creators/username/${fay.username}/corrections`, fay.cookie, {
      question: 'What time does the farmers market open on Saturday?',
      answer: 'At 8 in the morning, until noon.',
      messageId: handedOver.id,
    });
    expect(res.status).toBe(200);
    expect(await gaps()).toEqual([other.replyTo]);
  });
});

describe('with a model key', () => {
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
  });

  it('says the model answers; the playground cites what the model marked and charges nothing', async () => {
    const kai = await onboardedCreator(t, 'kai');
    await teach(t, kai.chatbotId, kai.username);
    expect(
      await json(await call(t, 'GET', `/api/creators/username/${kai.username}/answerer`, kai.cookie)),
    ).toMatchObject({
      configured: true,
      model: 'gpt-4o-mini',
    });
    openai.answerWith((r) => {
      const n = /\[(\d+)\] Starter care/.exec(String(r.messages[0]!.content))?.[1];
      return `Twice a day [${n}].`;
    });
    const ledger = await count(t, 'credit_ledger', kai.creatorId);
    const tried = await json(
      await call(t, 'POST', `/api/creators/username/${kai.username}/playground`, kai.cookie, {
        question: 'How often should I feed my sourdough starter?',
      }),
    );
    expect(tried).toMatchObject({ answer: 'Twice a day [1].', model: 'gpt-4o-mini', handedOver: false });
    expect((tried.sources as { title: string }[]).map((s) => s.title)).toEqual(['Starter care']);
    expect(openai.requests).toHaveLength(1);
    expect(await count(t, 'credit_ledger', kai.creatorId)).toBe(ledger);
    expect(await count(t, 'messages', kai.creatorId)).toBe(0);

    // The provider down: a readable 502, nothing stored.
    openai.failNext(1, 503);
    const down = await call(t, 'POST', `/api/creators/username/${kai.username}/playground`, kai.cookie, {
      question: 'How often should I feed my sourdough starter?',
    });
    expect(down.status).toBe(502);
    expect(await json(down)).toEqual({
      error: 'model_unavailable',
      message: 'The AI model did not answer. Please try again in a moment.',
    });
    expect(await count(t, 'messages', kai.creatorId)).toBe(0);
  });
});
