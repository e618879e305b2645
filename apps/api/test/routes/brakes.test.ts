import { randomBytes } from 'node:crypto';
import {
  creatorRoutes,
  fanRoutes,
  RESTORE_LINK_SENT_MESSAGE,
  RESTORE_REQUESTS_PER_ADDRESS_PER_HOUR,
  RESTORE_REQUESTS_PER_EMAIL_PER_HOUR,
} from '@fanpilot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKey } from '../../src/plugins/rate-limit.ts';
import { call, json, onboard, onboardedCreator, startTestApp, type TestApp } from '../helpers.ts';

/**
 * Brakes that count people, not addresses (issue #34, record 0071): an IPv6 client is its /64, a
 * restore mail is capped per email across api processes, the extension's Origin lifts the
 * cross-site check on fan calls only. (Download links after a switch-off: citations.test.ts.)
 */

const hex = () => randomBytes(2).toString('hex');
/** A fresh /64 (documentation prefix 2001:db8::/32) and an address in it. */
const net64 = () => `2001:db8:${hex()}:${hex()}`;
const inNet = (net: string) => `${net}:${hex()}:${hex()}:${hex()}:${hex()}`;
/** A fresh IPv4 address (TEST-NET-2, 198.51.100.0/24, and a random second octet block). */
const v4 = () => `10.${randomBytes(1)[0]! % 250}.${randomBytes(1)[0]! % 250}.${randomBytes(1)[0]! % 250}`;

/** A JSON request from `address` (what the api sees as request.ip), as the rate-limit tests do. */
const from = (
  t: TestApp,
  address: string,
  url: string,
  payload: unknown,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method: 'POST',
    url,
    remoteAddress: address,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(payload),
  });

const newFanAsks = (t: TestApp, address: string, creator: string) =>
  from(t, address, '/api/ask', {
    creator,
    message: 'Hi!',
    fanId: `mobile_fan_${randomBytes(12).toString('hex')}`,
  });

describe('the key of a per-address limit', () => {
  it('is an IPv6 address’s /64, and an IPv4-mapped IPv6 address’s IPv4 address', () => {
    expect(addressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('::ffff:c633:6407')).toBe('198.51.100.7');
    expect(addressKey('198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('::1')).toBe('::/64');
    expect(addressKey('')).toBe('');
  });
});

describe('per-address brakes key IPv6 by its /64', () => {
  let t: TestApp;
  const NEW_FANS = 5;

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        NEW_FANS_PER_IP: String(NEW_FANS),
        NEW_FANS_WINDOW_SECONDS: '600',
        ASK_RATE_LIMIT_PER_IP: '1000',
        ASK_RATE_LIMIT_PER_FAN: '1000',
      },
    });
    const hana = await onboard(t, 'hana');
    // Online: the AI stays out.
    await call(t, 'POST', '/api/toggle-status', hana, { creator: 'hana' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('new fans from one /64 count together however the addresses rotate; another /64 goes on', async () => {
    const net = net64();
    for (let i = 0; i < NEW_FANS; i++) {
      const res = await newFanAsks(t, inNet(net), 'hana');
      expect(res.statusCode, res.body).toBe(200);
    }
    const refused = await newFanAsks(t, inNet(net), 'hana');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      error: 'rate_limited',
      message: expect.stringMatching(/new chats .* Please wait \d+ minutes?/),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await newFanAsks(t, inNet(net64()), 'hana')).statusCode).toBe(200);
  });

  it('an IPv4-mapped IPv6 address counts as its IPv4 address', async () => {
    const address = v4();
    for (let i = 0; i < NEW_FANS; i++) {
      const mapped = i % 2 === 0 ? `::ffff:${address}` : address;
      expect((await newFanAsks(t, mapped, 'hana')).statusCode).toBe(200);
    }
    expect((await newFanAsks(t, `::ffff:${address}`, 'hana')).statusCode).toBe(429);
    expect((await newFanAsks(t, address, 'hana')).statusCode).toBe(429);
  });
});

describe('restore mails are capped per email and per address', () => {
  let t: TestApp;
  let second: TestApp;
  let creatorId: string;
  const restore = (app: TestApp, address: string, email: string) =>
    from(app, address, '/api/fan-subscriptions/restore', {
      creator: 'rosa',
      fanId: `mobile_fan_${randomBytes(12).toString('hex')}`,
      email,
    });
  const mailsTo = async (email: string) =>
    (
      await t.db.db
        .selectFrom('mail_outbox')
        .select('id')
        .where('purpose', '=', 'restore_link')
        .where('to_address', '=', email)
        .execute()
    ).length;
  const subscriber = async (email: string) => {
    await t.db.db
      .insertInto('fan_subscriptions')
      .values({
        creator_id: creatorId,
        provider_subscription_id: `sub_${randomBytes(8).toString('hex')}`,
        email,
        status: 'active',
        current_period_end: new Date(Date.now() + 30 * 86_400_000),
        access_until: new Date(Date.now() + 30 * 86_400_000),
        state_at: 1,
      })
      .execute();
  };
  /** The words of a refusal, its number of minutes left out. */
  const shape = (message: string) => message.replace(/\d+/g, 'N');

  beforeAll(async () => {
    t = await startTestApp();
    // A second api process on the same database (as behind a load balancer), when PostgreSQL is there.
    second = t.databaseUrl ? await startTestApp({ joinDatabase: t.databaseUrl }) : t;
    creatorId = (await onboardedCreator(t, 'rosa')).creatorId;
  });
  afterAll(async () => {
    if (second !== t) await second?.close();
    await t?.close();
  });

  it('mails one inbox at most the cap per hour from rotating addresses and api processes, saying when to retry', async () => {
    const email = `finn-${hex()}@example.com`;
    await subscriber(email);
    for (let i = 0; i < RESTORE_REQUESTS_PER_EMAIL_PER_HOUR; i++) {
      const res = await restore(
        i % 2 === 0 ? t : second,
        inNet(net64()),
        i === 1 ? email.toUpperCase() : email,
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ message: RESTORE_LINK_SENT_MESSAGE });
    }
    for (const app of [t, second]) {
      const refused = await restore(app, v4(), email);
      expect(refused.statusCode).toBe(429);
      const body = refused.json() as { error: string; message: string };
      expect(body.error).toBe('rate_limited');
      expect(body.message).toMatch(/Please wait (60|59) minutes and try again\./);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(58 * 60);
      expect(retryAfter).toBeLessThanOrEqual(60 * 60);
    }
    expect(await mailsTo(email)).toBe(RESTORE_REQUESTS_PER_EMAIL_PER_HOUR);
  });

  it('holds the cap when requests for one email race on two api processes at once', async () => {
    const email = `race-${hex()}@example.com`;
    await subscriber(email);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => restore(i % 2 === 0 ? t : second, inNet(net64()), email)),
    );
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([
      ...Array(RESTORE_REQUESTS_PER_EMAIL_PER_HOUR).fill(200),
      ...Array(10 - RESTORE_REQUESTS_PER_EMAIL_PER_HOUR).fill(429),
    ]);
    expect(await mailsTo(email)).toBe(RESTORE_REQUESTS_PER_EMAIL_PER_HOUR);
  });

  it('caps an email that subscribes and one that does not alike: the refusal tells nobody who subscribes', async () => {
    const subscribed = `sub-${hex()}@example.com`;
    const stranger = `nobody-${hex()}@example.com`;
    await subscriber(subscribed);
    const answers: Record<string, { status: number; body: string }[]> = { [subscribed]: [], [stranger]: [] };
    for (const email of [subscribed, stranger]) {
      for (let i = 0; i <= RESTORE_REQUESTS_PER_EMAIL_PER_HOUR; i++) {
        const res = await restore(t, inNet(net64()), email);
        const body = res.json() as { message: string };
        answers[email]!.push({ status: res.statusCode, body: shape(JSON.stringify(body)) });
      }
    }
    expect(answers[stranger]).toEqual(answers[subscribed]);
    expect(answers[stranger]!.map((a) => a.status)).toEqual([
      ...Array(RESTORE_REQUESTS_PER_EMAIL_PER_HOUR).fill(200),
      429,
    ]);
    expect(await mailsTo(stranger)).toBe(0);
    // No email address is kept for the requests: only a hash.
    const kept = await t.db.db.selectFrom('fan_restore_requests').select('email_hash').execute();
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.some((row) => row.email_hash.includes('@'))).toBe(false);
  });

  it('caps one /64 asking for many emails, in words, with Retry-After', async () => {
    const net = net64();
    for (let i = 0; i < RESTORE_REQUESTS_PER_ADDRESS_PER_HOUR; i++) {
      const res = await restore(t, inNet(net), `many-${i}-${hex()}@example.com`);
      expect(res.statusCode, res.body).toBe(200);
    }
    const refused = await restore(t, inNet(net), `one-more-${hex()}@example.com`);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      error: 'rate_limited',
      message: expect.stringMatching(/Too many restore links\. Please wait \d+ minutes? and try again\./),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another network goes on.
    expect((await restore(t, inNet(net64()), `other-${hex()}@example.com`)).statusCode).toBe(200);
  });
});

describe("the extension's Origin on creator calls", () => {
  const EXTENSION = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
  let t: TestApp;
  let owner: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { EXTENSION_ORIGINS: EXTENSION } });
    owner = await onboard(t, 'ezra');
  });
  afterAll(async () => {
    await t?.close();
  });

  const withOrigin = (method: string, path: string, cookie: string, body: unknown) =>
    fetch(`${t.url}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        cookie,
        origin: EXTENSION,
        'x-fan-token': randomBytes(32).toString('base64url'),
      },
      body: JSON.stringify(body),
    });

  it('is refused as cross-site on a creator call, even with a fan token; fan calls still pass', async () => {
    const description = '/api/creators/username/ezra/description';
    const refused = await withOrigin('PUT', description, owner, { description: 'Changed from elsewhere' });
    expect(refused.status).toBe(403);
    const body = await json(refused);
    expect(body.error).toBe('bad_origin');
    expect(String(body.message)).toContain('must come from');
    const toggled = await withOrigin('POST', '/api/toggle-status', owner, { creator: 'ezra' });
    expect(toggled.status).toBe(403);
    // Nothing changed.
    const me = await json(await call(t, 'GET', '/api/auth/user', owner));
    expect(me.description ?? '').not.toBe('Changed from elsewhere');

    // The extension's own calls: a fan's question.
    const asked = await withOrigin('POST', '/api/ask', '', {
      creator: 'ezra',
      message: 'Hello from the side panel',
      fanId: `mobile_fan_${randomBytes(8).toString('hex')}`,
    });
    expect(asked.status).toBe(200);
  });

  it('passes every fan call that changes data, and refuses every creator call that does', async () => {
    const writes = (table: Record<string, { method: string; path: string }>) =>
      Object.values(table)
        .filter((route) => route.method !== 'GET')
        .map((route) => ({ method: route.method, path: route.path.replace(/:\w+/g, 'x') }));
    const fanWrites = writes(fanRoutes);
    expect(fanWrites.length).toBeGreaterThan(5);
    for (const { method, path } of fanWrites) {
      const res = await withOrigin(method, path, '', {});
      const body = await json(res);
      expect(body.error, `${method} ${path}`).not.toBe('bad_origin');
    }
    const creatorWrites = writes(creatorRoutes).filter(
      // Outside the browser's reach by design: Stripe's webhook and one-click unsubscribe carry
      // their own proof (a signature, a signed link).
      (route) =>
        !route.path.startsWith('/api/stripe/') && !route.path.startsWith('/api/notifications/unsubscribe'),
    );
    expect(creatorWrites.length).toBeGreaterThan(20);
    for (const { method, path } of creatorWrites) {
      const res = await withOrigin(method, path, owner, {});
      expect(res.status, `${method} ${path}`).toBe(403);
      expect((await json(res)).error, `${method} ${path}`).toBe('bad_origin');
    }
  });
});
