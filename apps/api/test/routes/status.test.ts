import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, FanBrowser, json, onboard, startTestApp, type TestApp } from '../helpers.ts';

describe('status, notices, templates and usage', () => {
  let t: TestApp;
  let nora: string;
  let owen: string;
  beforeAll(async () => {
    t = await startTestApp();
    nora = await onboard(t, 'nora');
    owen = await onboard(t, 'owen');
  });
  afterAll(async () => {
    await t.close();
  });

  it('starts Offline with the default Offline status text and flips with toggle-status', async () => {
    const read = () => call(t, 'GET', '/api/creators/username/nora/status', nora).then(json);
    expect(await read()).toEqual({ isOnline: false, statusText: 'Offline - AI responding' });
    const on = await call(t, 'POST', '/api/toggle-status', nora, { creator: 'nora' });
    expect(on.status).toBe(200);
    expect(await json(on)).toEqual({
      success: true,
      isOnline: true,
      statusText: 'Online - Creator responding',
    });
    expect(await read()).toEqual({ isOnline: true, statusText: 'Online - Creator responding' });
    const off = await json(await call(t, 'POST', '/api/toggle-status', nora, { creator: 'nora' }));
    expect(off).toEqual({ success: true, isOnline: false, statusText: 'Offline - AI responding' });
    expect((await call(t, 'POST', '/api/toggle-status', nora, {})).status).toBe(400);
  });

  it('sends notices: trimmed, delivered to the fans of the moment, newest first in the history', async () => {
    expect(await json(await call(t, 'GET', '/api/creators/username/owen/notice', owen))).toEqual({
      notice: null,
    });
    expect(await json(await call(t, 'GET', '/api/creators/username/owen/notice-history', owen))).toEqual([]);

    const first = await call(t, 'POST', '/api/creators/username/owen/set-notice', owen, {
      message: '  Hello fans  ',
    });
    expect(first.status).toBe(200);
    expect(await json(first)).toMatchObject({
      success: true,
      notice: { message: 'Hello fans', sentCount: 0, id: expect.any(String), timestamp: expect.any(String) },
    });
    await new FanBrowser(t).ask('owen', 'Hi');
    await new FanBrowser(t).ask('owen', 'Hey');
    const second = await json(
      await call(t, 'POST', '/api/creators/username/owen/set-notice', owen, {
        message: 'New video https://owen.example/v',
      }),
    );
    expect(second).toMatchObject({ notice: { sentCount: 2 } });

    const current = await json(await call(t, 'GET', '/api/creators/username/owen/notice', owen));
    expect(current).toMatchObject({ notice: { message: 'New video https://owen.example/v', sentCount: 2 } });
    // The current notice's fields also sit at the top level, the same as in `notice`.
    const { notice, ...top } = current as Record<string, unknown>;
    expect(top).toEqual(notice);
    expect(top).toMatchObject({
      message: 'New video https://owen.example/v',
      sentCount: 2,
      timestamp: expect.any(String),
    });
    const history = (await json(
      await call(t, 'GET', '/api/creators/username/owen/notice-history', owen),
    )) as unknown as { message: string; sentCount: number }[];
    expect(history.map((n) => [n.message, n.sentCount])).toEqual([
      ['New video https://owen.example/v', 2],
      ['Hello fans', 0],
    ]);
    // Fans see the current notice.
    const card = await json(await fetch(`${t.url}/api/public/creators/owen`));
    expect(card).toMatchObject({ notice: { message: 'New video https://owen.example/v' } });
  });

  it('refuses an empty announcement with a clear 400 and stores nothing; 500 characters is only a counter', async () => {
    const count = async () =>
      (
        (await json(
          await call(t, 'GET', '/api/creators/username/nora/notice-history', nora),
        )) as unknown as unknown[]
      ).length;
    const before = await count();
    const cases: [unknown, string][] = [
      [{ message: '' }, 'An announcement must not be empty'],
      [{ message: '   \n  ' }, 'An announcement must not be empty'],
      [{}, 'An announcement must not be empty'],
      [{ message: null }, 'An announcement must not be empty'],
      [{ message: 12 }, 'expected string'],
      [{ message: 'x'.repeat(100_001) }, 'far too long'],
    ];
    for (const [body, text] of cases) {
      const res = await call(t, 'POST', '/api/creators/username/nora/set-notice', nora, body);
      expect(res.status).toBe(400);
      const err = await json(res);
      expect(err).toEqual({
        error: 'validation_error',
        message: expect.stringContaining(text),
        field: 'message',
      });
    }
    expect(await count()).toBe(before);
    // Exactly 500 characters, after trimming, is fine; and so is more (docs/product.md#announcements: no hard enforcement).
    const edge = await call(t, 'POST', '/api/creators/username/nora/set-notice', nora, {
      message: `  ${'y'.repeat(500)}  `,
    });
    expect(edge.status).toBe(200);
    const long = await call(t, 'POST', '/api/creators/username/nora/set-notice', nora, {
      message: 'z'.repeat(1200),
    });
    expect(long.status).toBe(200);
    expect(((await json(long)).notice as { message: string }).message).toHaveLength(1200);
    expect(await count()).toBe(before + 2);
  });

  it('keeps saved reply templates: list, create, delete', async () => {
    const list = async () =>
      (await json(await call(t, 'GET', '/api/creators/username/nora/templates', nora))) as unknown as {
        id: string;
        title: string;
        content: string;
      }[];
    expect(await list()).toEqual([]);
    const created = await call(t, 'POST', '/api/creators/username/nora/templates', nora, {
      title: ' Thanks ',
      content: ' Thank you for your question! ',
    });
    expect(created.status).toBe(200);
    const template = await json(created);
    expect(template).toEqual({
      id: expect.any(String),
      title: 'Thanks',
      content: 'Thank you for your question!',
      createdAt: expect.any(String),
    });
    await call(t, 'POST', '/api/creators/username/nora/templates', nora, {
      title: 'Later',
      content: 'Back soon.',
    });
    expect((await list()).map((x) => x.title)).toEqual(['Thanks', 'Later']);

    for (const body of [
      { title: '', content: 'x' },
      { title: 'x', content: '   ' },
      { title: 'x'.repeat(101), content: 'x' },
    ]) {
      expect((await call(t, 'POST', '/api/creators/username/nora/templates', nora, body)).status).toBe(400);
    }
    // Another creator can neither read, add to, nor delete Nora's templates.
    expect((await call(t, 'GET', '/api/creators/username/nora/templates', owen)).status).toBe(403);
    expect(
      (await call(t, 'POST', '/api/creators/username/nora/templates', owen, { title: 'a', content: 'b' }))
        .status,
    ).toBe(403);
    expect(
      (await call(t, 'DELETE', `/api/creators/username/nora/templates/${template.id}`, owen)).status,
    ).toBe(403);
    expect(
      (await call(t, 'DELETE', `/api/creators/username/owen/templates/${template.id}`, owen)).status,
    ).toBe(404);

    const removed = await call(t, 'DELETE', `/api/creators/username/nora/templates/${template.id}`, nora);
    expect(removed.status).toBe(200);
    expect(await json(removed)).toEqual({ success: true });
    expect((await list()).map((x) => x.title)).toEqual(['Later']);
    expect(
      (await call(t, 'DELETE', `/api/creators/username/nora/templates/${template.id}`, nora)).status,
    ).toBe(404);
    expect((await call(t, 'DELETE', '/api/creators/username/nora/templates/not-a-uuid', nora)).status).toBe(
      404,
    );
  });

  it('reports usage: the 1,000 free credits, none used yet', async () => {
    const res = await call(t, 'GET', '/api/creators/username/nora/usage', nora);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      creditsUsed: 0,
      creditsRemaining: 1000,
      freeCredits: 1000,
      creditsPurchased: 0,
      aiAnswersToday: 0,
      dailyAiBudget: 300,
      aiBudgetReached: false,
    });
  });

  it("counts the Offline AI's answers: the two fan questions Owen got earlier cost one credit each", async () => {
    // No model key in these tests and no knowledge: the AI still answers each question (a polite
    // fallback), once, for one credit.
    const usage = await eventually(async () => {
      const body = await json(await call(t, 'GET', '/api/creators/username/owen/usage', owen));
      return body.creditsUsed === 2 ? body : null;
    });
    expect(usage).toEqual({
      creditsUsed: 2,
      creditsRemaining: 998,
      freeCredits: 1000,
      creditsPurchased: 0,
      aiAnswersToday: 2,
      dailyAiBudget: 300,
      aiBudgetReached: false,
    });
  });

  it('refuses another creator (403), unknown usernames (404) and the signed-out (401)', async () => {
    const reads = ['status', 'notice', 'notice-history', 'templates', 'usage'];
    for (const read of reads) {
      const path = `/api/creators/username/{u}/${read}`;
      expect([read, (await call(t, 'GET', path.replace('{u}', 'nora'), owen)).status]).toEqual([read, 403]);
      expect([read, (await call(t, 'GET', path.replace('{u}', 'ghost'), owen)).status]).toEqual([read, 404]);
      expect([read, (await call(t, 'GET', path.replace('{u}', 'nora'), '')).status]).toEqual([read, 401]);
    }
    const notice = await call(t, 'POST', '/api/creators/username/nora/set-notice', owen, {
      message: 'Hijack',
    });
    expect(notice.status).toBe(403);
    const toggle = await call(t, 'POST', '/api/toggle-status', owen, { creator: 'nora' });
    expect(toggle.status).toBe(403);
    expect((await call(t, 'POST', '/api/toggle-status', '', { creator: 'nora' })).status).toBe(401);
    const status = await json(await call(t, 'GET', '/api/creators/username/nora/status', nora));
    expect(status.isOnline).toBe(false);
  });
});
