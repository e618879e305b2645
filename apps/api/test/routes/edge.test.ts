import { connect } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorsPlugin } from '../../src/plugins/errors.ts';
import { securityPlugin } from '../../src/plugins/security.ts';
import { KNOWLEDGE_REFETCH_LIMIT } from '../../src/routes/knowledge/index.ts';
import { json, onboard, startTestApp, type TestApp } from '../helpers.ts';

/** POST /api/ask as a fan from `xff` (the per-address limit counts before the body is read). */
const ask = (t: TestApp, xff: string) =>
  fetch(`${t.url}/api/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': xff },
    body: JSON.stringify({}),
  });

const randomAddress = (i: number) => `203.0.113.${i % 250}`;

describe('TRUST_PROXY', () => {
  describe('unset', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ env: { ASK_RATE_LIMIT_PER_IP: '5' } });
    });
    afterAll(() => t.close());

    it('ignores X-Forwarded-For: the per-address limit on /api/ask holds across made-up addresses', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await ask(t, randomAddress(i))).status);
      expect(statuses.slice(0, 5).every((s) => s !== 429)).toBe(true);
      expect(statuses.slice(5)).toEqual([429, 429, 429]);
    });
  });

  describe('naming the proxy (127.0.0.1)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ env: { ASK_RATE_LIMIT_PER_IP: '5', TRUST_PROXY: '127.0.0.1' } });
    });
    afterAll(() => t.close());

    it('honours X-Forwarded-For from it: each client address has its own limit', async () => {
      for (let i = 0; i < 8; i++) expect((await ask(t, randomAddress(i))).status).not.toBe(429);
      const one: number[] = [];
      for (let i = 0; i < 7; i++) one.push((await ask(t, '198.51.100.7')).status);
      expect(one.slice(5)).toEqual([429, 429]);
    });
  });

  it('refuses a value that is not an address, a range or a proxy-addr name', async () => {
    const { loadEnv } = await import('../../src/env.ts');
    expect(loadEnv({ TRUST_PROXY: '10.0.0.0/8, 172.16.0.1,uniquelocal ,::1' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '172.16.0.1',
      'uniquelocal',
      '::1',
    ]);
    expect(loadEnv({}).TRUST_PROXY).toEqual([]);
    expect(() => loadEnv({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(() => loadEnv({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(/TRUST_PROXY/);
    expect(() => loadEnv({ TRUST_PROXY: 'gateway' })).toThrow(/TRUST_PROXY/);
  });
});

describe('security headers and Origin check', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await startTestApp();
    cookie = await onboard(t, 'olga');
  });
  afterAll(() => t.close());

  it('sets CSP, frame protection, nosniff and Referrer-Policy on api answers, no HSTS on http', async () => {
    for (const path of ['/api/auth/user', '/healthz', '/api/no-such-route']) {
      const res = await fetch(`${t.url}${path}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("worker-src 'self'");
      expect(csp).toContain("manifest-src 'self'");
      // Pre-signed URLs point at the object store.
      expect(csp).toMatch(new RegExp(`img-src [^;]*${t.s3.endpoint}`));
      expect(csp).toMatch(new RegExp(`connect-src [^;]*${t.s3.endpoint}`));
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  const toggle = (headers: Record<string, string>) =>
    fetch(`${t.url}/api/toggle-status`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ creator: 'olga' }),
    });

  it('refuses a state-changing creator call from another origin with 403 bad_origin', async () => {
    for (const headers of <Record<string, string>[]>[
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: `http://localhost:${new URL(t.url).port}` },
      { 'sec-fetch-site': 'cross-site' },
    ]) {
      const res = await toggle(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      const body = await json(res);
      expect(body.error).toBe('bad_origin');
      expect(body.message).toBeTruthy();
    }
    const del = await fetch(`${t.url}/api/knowledge/00000000-0000-4000-8000-000000000000`, {
      method: 'DELETE',
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(del.status).toBe(403);
  });

  it('accepts our own origin, same-origin fetches and clients that send neither header', async () => {
    expect((await toggle({ origin: t.url })).status).toBe(200);
    expect((await toggle({ 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await toggle({})).status).toBe(200);
    // Reads are not checked.
    const read = await fetch(`${t.url}/api/auth/user`, {
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(read.status).toBe(200);
    // The specified GET /auth/logout stays as the product description (docs/product.md#outside-api) says.
    const out = await fetch(`${t.url}/auth/logout`, {
      headers: { cookie, origin: 'https://evil.example' },
      redirect: 'manual',
    });
    expect(out.status).toBeLessThan(400);
  });

  it('checks fan questions too (the fan app is on the same origin)', async () => {
    const res = await fetch(`${t.url}/api/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ creator: 'olga', fanId: 'mobile_fan_x', message: 'hi' }),
    });
    expect(res.status).toBe(403);
    expect((await json(res)).error).toBe('bad_origin');
  });
});

describe('request timeouts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      timeouts: { requestMs: 2_000, headersMs: 1_500, idleMs: 10_000, checkIntervalMs: 250 },
    });
  });
  afterAll(() => t.close());

  /** Sends a POST's headers, then one body byte a second; resolves with what the server did. */
  const slowBody = (path: string) =>
    new Promise<{ answer: string; seconds: number }>((resolve) => {
      const started = Date.now();
      const port = Number(new URL(t.url).port);
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      let timer: NodeJS.Timeout | undefined;
      socket.on('connect', () => {
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
        );
        timer = setInterval(() => socket.write(' '), 1_000);
      });
      socket.on('data', (d) => {
        answer += d.toString();
      });
      const done = () => {
        clearInterval(timer);
        resolve({ answer, seconds: (Date.now() - started) / 1000 });
      };
      socket.on('close', done);
      socket.on('error', () => {});
    });

  it('cuts off a client that sends its body a byte a second, while other requests go on', async () => {
    const slow = Promise.all([slowBody('/api/ask'), slowBody('/api/creator-signup')]);
    // Meanwhile an ordinary request is answered at once.
    const started = Date.now();
    const health = await fetch(`${t.url}/healthz`);
    expect(health.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1_000);
    for (const { answer, seconds } of await slow) {
      expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
      expect(seconds).toBeGreaterThan(1.5);
      expect(seconds).toBeLessThan(5);
    }
  });

  it('cuts off a client that never finishes its headers', async () => {
    const port = Number(new URL(t.url).port);
    const started = Date.now();
    const seconds = await new Promise<number>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n'));
      socket.resume();
      socket.on('close', () => resolve((Date.now() - started) / 1000));
      socket.on('error', () => {});
    });
    expect(seconds).toBeLessThan(4);
  });
});

describe('on an https public origin', () => {
  it('asks for HSTS and upgrades insecure requests; a request from the https origin passes', async () => {
    const app = Fastify();
    await app.register(errorsPlugin);
    await app.register(securityPlugin, { publicOrigin: 'https://fanpilot.example', storeOrigins: [] });
    app.post('/api/thing', async () => ({ ok: true }));
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/api/thing',
        headers: { origin: 'https://fanpilot.example' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=31536000/);
      expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
      // PUBLIC_ORIGIN set: only that origin, not whatever host the request names.
      const sameHost = await app.inject({
        method: 'POST',
        url: '/api/thing',
        headers: { origin: 'http://attacker.example', host: 'attacker.example' },
      });
      expect(sameHost.statusCode).toBe(403);
      expect(sameHost.json().error).toBe('bad_origin');
    } finally {
      await app.close();
    }
  });
});

describe('re-fetching a knowledge source', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it(`is limited to ${KNOWLEDGE_REFETCH_LIMIT.max} retries and re-syncs per creator per window`, async () => {
    const send = (cookie: string, method: string, path: string, body?: unknown) =>
      fetch(`${t.url}${path}`, {
        method,
        headers: { cookie, 'content-type': 'application/json' },
        body: body === undefined ? '' : JSON.stringify(body),
      });
    const addSource = async (cookie: string, username: string) => {
      const bot = await t.db.db
        .selectFrom('chatbots')
        .innerJoin('creators', 'creators.id', 'chatbots.creator_id')
        .select('chatbots.id')
        .where('creators.username', '=', username)
        .executeTakeFirstOrThrow();
      const added = await send(cookie, 'POST', '/api/add-knowledge', {
        chatbotId: bot.id,
        url: `https://coach.example/${username}`,
      });
      expect(added.status).toBe(200);
      return ((await added.json()) as { id: string }).id;
    };
    const settle = (id: string, status: 'failed' | 'completed') =>
      t.db.db.updateTable('knowledge_items').set({ status }).where('id', '=', id).execute();

    const cookie = await onboard(t, 'ines');
    const item = await addSource(cookie, 'ines');
    const statuses: number[] = [];
    for (let i = 0; i <= KNOWLEDGE_REFETCH_LIMIT.max; i++) {
      const retry = i % 2 === 0;
      await settle(item, retry ? 'failed' : 'completed');
      statuses.push(
        (await send(cookie, 'POST', `/api/knowledge/${item}/${retry ? 'retry' : 'resync'}`)).status,
      );
    }
    expect(statuses.slice(0, KNOWLEDGE_REFETCH_LIMIT.max).every((s) => s === 200)).toBe(true);
    const limited = await send(cookie, 'POST', `/api/knowledge/${item}/resync`);
    expect(statuses.at(-1)).toBe(429);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
    expect((await json(limited)).error).toBe('rate_limited');

    // Another creator is not held back.
    const other = await onboard(t, 'jonas');
    const theirs = await addSource(other, 'jonas');
    await settle(theirs, 'completed');
    expect((await send(other, 'POST', `/api/knowledge/${theirs}/resync`)).status).toBe(200);
  });
});
