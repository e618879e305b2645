import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, FanBrowser, json, onboard, startTestApp, type TestApp } from '../helpers.ts';

describe('a question the AI gave up on', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await startTestApp();
    cookie = await onboard(t, 'hana');
    // Online: the question waits, no AI job runs, so the test decides what happened to it.
    await call(t, 'POST', '/api/toggle-status', cookie, { creator: 'hana' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is marked for the fan (and the creator) as one the creator will answer personally', async () => {
    const fan = new FanBrowser(t);
    expect((await fan.ask('hana', 'Will anyone answer?')).status).toBe(200);
    const other = new FanBrowser(t);
    expect((await other.ask('hana', 'A question the AI has not given up on')).status).toBe(200);
    await t.db.db
      .updateTable('messages')
      .set({ ai_handed_over_at: new Date() })
      .where('body', '=', 'Will anyone answer?')
      .execute();
    // Written here, not through the api: wait until its process has heard it from the change feed.
    await t.app.changes.caughtUp();

    const read = await fetch(`${t.url}/api/chatlog/fan/${fan.fanId}?creator=hana`, {
      headers: { cookie: fan.cookie },
    });
    const mine = (await read.json()) as { messages: { message: string; handedToCreator?: boolean }[] };
    expect(mine.messages.find((m) => m.message === 'Will anyone answer?')?.handedToCreator).toBe(true);

    const all = (await json(
      await call(t, 'GET', '/api/creators/username/hana/messages', cookie),
    )) as unknown as {
      message: string;
      handedToCreator?: boolean;
    }[];
    expect(all.find((m) => m.message === 'Will anyone answer?')?.handedToCreator).toBe(true);
    expect(all.find((m) => m.message.startsWith('A question the AI'))?.handedToCreator).toBeUndefined();

    // Once answered, it is an ordinary answered question again.
    const question = all.find((m) => m.message === 'Will anyone answer?') as unknown as { id: string };
    expect(
      (
        await call(t, 'POST', '/api/answer', cookie, {
          creator: 'hana',
          messageId: question.id,
          response: 'I will!',
        })
      ).status,
    ).toBe(200);
    const after = (await (
      await fetch(`${t.url}/api/chatlog/fan/${fan.fanId}?creator=hana`, { headers: { cookie: fan.cookie } })
    ).json()) as { messages: { message: string; handedToCreator?: boolean }[] };
    expect(after.messages.find((m) => m.message === 'Will anyone answer?')?.handedToCreator).toBeUndefined();
  });
});
