import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, FanBrowser, json, onboard, sent, startTestApp, type TestApp } from '../helpers.ts';
import { hasRedisServer, ownRedis, pgProxy } from '../support/faults.ts';

const baseUrl = process.env.TEST_DATABASE_URL;

describe.runIf(baseUrl)('PostgreSQL refusing connections', () => {
  let t: TestApp;
  let proxy: Awaited<ReturnType<typeof pgProxy>>;
  let cookie: string;

  beforeAll(async () => {
    t = await startTestApp({
      databaseUrlVia: async (url) => {
        proxy = await pgProxy(new URL(url));
        return proxy.urlFor(url);
      },
    });
    cookie = await onboard(t, 'pia');
  });
  afterAll(async () => {
    await proxy?.restore().catch(() => {});
    await t?.close();
    await proxy?.close();
  });

  it('answers 503 with Retry-After and { error, message } (never 500), then recovers with nothing lost', async () => {
    const fan = new FanBrowser(t);
    const before = await fan.ask('pia', 'Asked before the outage');
    expect(before.status).toBe(200);

    await proxy.refuse();
    const during: { status: number; retryAfter: string | null; ms: number; body: { error?: string } }[] = [];
    const bodyOf = async (res: Response) => (await res.json()) as { error?: string };
    const probes: [string, string, string | undefined, unknown?][] = [
      ['GET', '/api/auth/user', cookie],
      ['GET', '/api/creators/username/pia/messages', cookie],
      ['POST', '/api/toggle-status', cookie, { creator: 'pia' }],
    ];
    for (const [method, path, c, body] of probes) {
      const started = Date.now();
      const res = await call(t, method, path, c ?? '', body);
      during.push({
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        ms: Date.now() - started,
        body: await bodyOf(res),
      });
    }
    const started = Date.now();
    const asked = await fan.ask('pia', 'Asked while PostgreSQL is down');
    during.push({
      status: asked.status,
      retryAfter: asked.headers.get('retry-after'),
      ms: Date.now() - started,
      body: await bodyOf(asked),
    });
    console.log(
      `PostgreSQL down: ${during.map((d) => `${d.status} in ${d.ms} ms`).join(', ')}; longest ${Math.max(...during.map((d) => d.ms))} ms`,
    );
    for (const d of during) {
      expect(d.status).toBe(503);
      expect(Number(d.retryAfter)).toBeGreaterThan(0);
      expect(d.body.error).toBe('service_unavailable');
      expect(d.ms).toBeLessThan(6_000);
    }

    await proxy.restore();
    // The pool reconnects on the next request; the fan sends again, as the app does after a 503.
    const again = await fan.ask('pia', 'Asked while PostgreSQL is down');
    expect(again.status).toBe(200);
    expect((await sent(again)).success).toBe(true);
    const messages = await json(await call(t, 'GET', '/api/creators/username/pia/messages', cookie));
    const bodies = JSON.stringify(messages);
    expect(bodies).toContain('Asked before the outage');
    expect(bodies).toContain('Asked while PostgreSQL is down');
  }, 60_000);
});

const redisServer = await hasRedisServer();

describe.runIf(baseUrl && redisServer)('Redis going away', () => {
  let t: TestApp;
  let redis: Awaited<ReturnType<typeof ownRedis>>;
  let cookie: string;
  const killRedis = () => redis.kill();
  const startRedis = () => redis.start();

  beforeAll(async () => {
    redis = await ownRedis();
    t = await startTestApp({ redisUrl: redis.url });
    cookie = await onboard(t, 'rudy');
  });
  afterAll(async () => {
    // Closing waits for BullMQ's reconnection to the restarted Redis; never for ever.
    await Promise.race([t?.close().catch(() => {}), new Promise((r) => setTimeout(r, 20_000))]);
    await killRedis();
  }, 30_000);

  it('asks, knowledge adds and status toggles answer at once while Redis is down; the writes are kept', async () => {
    await killRedis();
    const timings: number[] = [];
    const timed = async (work: () => Promise<Response>) => {
      const started = Date.now();
      const res = await work();
      timings.push(Date.now() - started);
      return res;
    };
    const fans = Array.from({ length: 3 }, () => new FanBrowser(t));
    for (const [i, fan] of fans.entries()) {
      const res = await timed(() => fan.ask('rudy', `Question ${i} while Redis is down`));
      expect(res.status).toBe(200);
      expect((await sent(res)).success).toBe(true);
    }
    const bot = await json(await call(t, 'GET', '/api/creators/username/rudy/chatbot', cookie));
    const added = await timed(() =>
      call(t, 'POST', '/api/add-knowledge', cookie, { chatbotId: bot.id, url: 'http://127.0.0.1:9/page' }),
    );
    expect(added.status).toBe(200);
    const itemId = (await json(added)).id as string;
    const toggled = await timed(() => call(t, 'POST', '/api/toggle-status', cookie, { creator: 'rudy' }));
    expect(toggled.status).toBe(200);
    console.log(`Redis down: longest request ${Math.max(...timings)} ms (${timings.join(', ')})`);
    expect(Math.max(...timings)).toBeLessThan(3_000);

    // Everything the calls said was stored is stored.
    const questions = await t.db.db
      .selectFrom('messages')
      .select('body')
      .where('body', 'like', '%while Redis is down')
      .execute();
    expect(questions).toHaveLength(3);
    const item = await t.db.db
      .selectFrom('knowledge_items')
      .select('status')
      .where('id', '=', itemId)
      .executeTakeFirst();
    expect(item?.status).toBe('pending');
    await startRedis();
  }, 60_000);
});
