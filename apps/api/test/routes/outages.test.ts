import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, FanBrowser, freePort, json, onboard, sent, startTestApp, type TestApp } from '../helpers.ts';

/** A TCP proxy in front of PostgreSQL that the test can make refuse every connection. */
async function pgProxy(target: URL) {
  const targetPort = Number(target.port || 5432);
  const targetHost = target.hostname;
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = () =>
    new Promise<void>((resolve) => {
      if (server?.listening) return resolve();
      server = createServer((client) => {
        const upstream = tcpConnect(targetPort, targetHost);
        sockets.add(client).add(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => resolve());
    });
  await listen();
  return {
    port,
    /** PostgreSQL "goes down": open connections are cut, new ones refused. */
    async refuse() {
      await new Promise<void>((resolve) => {
        server?.close(() => resolve());
        for (const s of sockets) s.destroy();
        sockets.clear();
      });
    },
    restore: listen,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => (server?.listening ? server.close(() => resolve()) : resolve()));
    },
  };
}

const baseUrl = process.env.TEST_DATABASE_URL;

describe.runIf(baseUrl)('PostgreSQL refusing connections', () => {
  let t: TestApp;
  let proxy: Awaited<ReturnType<typeof pgProxy>>;
  let cookie: string;

  beforeAll(async () => {
    t = await startTestApp({
      databaseUrlVia: async (url) => {
        const target = new URL(url);
        proxy = await pgProxy(target);
        target.hostname = '127.0.0.1';
        target.port = String(proxy.port);
        return target.toString();
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

const hasRedisServer = await new Promise<boolean>((resolve) => {
  const probe = spawn('redis-server', ['--version'], { stdio: 'ignore' });
  probe.once('error', () => resolve(false));
  probe.once('exit', (code) => resolve(code === 0));
});

describe.runIf(baseUrl && hasRedisServer)('Redis going away', () => {
  let t: TestApp;
  let redis: ChildProcess;
  let redisPort: number;
  let cookie: string;

  const startRedis = async () => {
    redis = spawn(
      'redis-server',
      ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await new Promise((r) => setTimeout(r, 300));
  };
  const killRedis = () =>
    new Promise<void>((resolve) => {
      if (redis.exitCode !== null || redis.signalCode !== null) return resolve();
      redis.once('exit', () => resolve());
      redis.kill('SIGKILL');
    });

  beforeAll(async () => {
    redisPort = await freePort();
    await startRedis();
    t = await startTestApp({ redisUrl: `redis://127.0.0.1:${redisPort}` });
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
