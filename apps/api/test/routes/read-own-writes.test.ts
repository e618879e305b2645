import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, FanBrowser, json, onboard, startTestApp, type TestApp } from '../helpers.ts';

// Unchanged polls are answered from the versions the change feed has heard (record 0086). Here the
// api hears every notice 400 ms late, as a lagging listening connection would: a writer's next read
// must still see its write, never an answer kept from before it.
const LAG_MS = 400;

describe('read your own writes while the change feed lags', () => {
  let t: TestApp;
  let nora: string;
  beforeAll(async () => {
    t = await startTestApp({ feedLagMs: LAG_MS });
    nora = await onboard(t, 'nora');
  });
  afterAll(async () => {
    await t.close();
  });

  it('a deleted template is gone from the list read right after, and a new one is in it', async () => {
    const titles = async () =>
      (
        (await json(await call(t, 'GET', '/api/creators/username/nora/templates', nora))) as unknown as {
          title: string;
        }[]
      ).map((x) => x.title);
    // Read twice: the second is answered from what the first kept.
    expect(await titles()).toEqual([]);
    expect(await titles()).toEqual([]);
    const created = await json(
      await call(t, 'POST', '/api/creators/username/nora/templates', nora, {
        title: 'Thanks',
        content: 'Hi',
      }),
    );
    expect(await titles()).toEqual(['Thanks']);
    expect(await titles()).toEqual(['Thanks']);
    const removed = await call(t, 'DELETE', `/api/creators/username/nora/templates/${created.id}`, nora);
    expect(removed.status).toBe(200);
    expect(await titles()).toEqual([]);
  });

  it('a status toggled is read back at once, by a poll that holds the old validator too', async () => {
    const first = await call(t, 'GET', '/api/creators/username/nora/status', nora);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(await json(first)).toMatchObject({ isOnline: false });
    expect((await call(t, 'POST', '/api/toggle-status', nora, { creator: 'nora' })).status).toBe(200);
    const again = await fetch(`${t.url}/api/creators/username/nora/status`, {
      headers: { cookie: nora, 'if-none-match': etag! },
    });
    expect(again.status).toBe(200);
    expect(await json(again)).toMatchObject({ isOnline: true });
  });

  it("a fan's second question is in the chat log read right after sending it", async () => {
    const fan = new FanBrowser(t);
    expect((await fan.ask('nora', 'First question?')).status).toBe(200);
    expect((await fan.messages('nora')).map((m) => m.message)).toContain('First question?');
    expect((await fan.ask('nora', 'Second question?')).status).toBe(200);
    expect((await fan.messages('nora')).map((m) => m.message)).toContain('Second question?');
  });

  it('a write is answered once the feed has heard it: its answer waits for the lag', async () => {
    const started = performance.now();
    const res = await call(t, 'POST', '/api/creators/username/nora/templates', nora, {
      title: 'B',
      content: 'b',
    });
    const took = performance.now() - started;
    expect(res.status).toBe(200);
    // Its fence cannot be heard back sooner than the lag.
    expect(took).toBeGreaterThanOrEqual(LAG_MS - 5);
  });
});
