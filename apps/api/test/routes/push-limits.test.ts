import { JOBS, PUSH_QUEUE, pushDeliveryJobId } from '@fanpilot/contracts';
import { PUSH_SUBSCRIPTIONS_PER_BROWSER, pushSubscriptions, writeJob } from '@fanpilot/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, FanBrowser, json, onboard, startTestApp, type TestApp } from '../helpers.ts';
import { type Device, startPushService } from '../support/push-service.ts';

/**
 * Push within reason (issue #23): one fan's browser cannot multiply the pushes of one message, and
 * the api POSTs only to push services. Pushes are counted at the loopback push service, which
 * checks and decrypts each one as a browser's push service would.
 */

type Service = Awaited<ReturnType<typeof startPushService>>;

const ATTEMPTS = 1000;
const CONCURRENCY = 20;

/** Runs `task` for 0…n-1 with at most `limit` at a time; the results in order. */
async function bounded<T>(n: number, limit: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < n) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

const subscribe = (
  t: TestApp,
  fan: FanBrowser,
  subscription: Device['subscription'] | Record<string, unknown>,
) =>
  fetch(`${t.url}/api/push/subscriptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(fan.cookie ? { cookie: fan.cookie } : {}) },
    body: JSON.stringify({ creator: 'pia', fanId: fan.fanId, subscription }),
  });

const storedFor = (t: TestApp, fan: FanBrowser) =>
  t.db.db
    .selectFrom('push_subscriptions')
    .innerJoin('fans', 'fans.id', 'push_subscriptions.fan_id')
    .select('push_subscriptions.endpoint')
    .where('fans.fan_key', '=', fan.fanId)
    .execute();

/** A fan who asked Pia something (subscribing needs the fan to exist), and that question's id. */
async function askingFan(t: TestApp, text: string) {
  const fan = new FanBrowser(t);
  expect((await fan.ask('pia', text)).status).toBe(200);
  const id = (await fan.messages('pia')).find((m) => m.message === text)!.id;
  return { fan, questionId: id };
}

/** Pia answers; resolves with her reply's message id. */
async function answer(t: TestApp, cookie: string, questionId: string, response: string) {
  const res = await call(t, 'POST', '/api/answer', cookie, {
    creator: 'pia',
    messageId: questionId,
    response,
  });
  expect(res.status).toBe(200);
  return ((await json(res)) as unknown as { message: { id: string } }).message.id;
}

/** Every push job has run (none waiting or running): what was going to be pushed has been. */
const pushesSettled = (t: TestApp) => eventually(async () => (await t.jobs.pending(PUSH_QUEUE)) === 0);

const pushesTo = (service: Service, devices: Device[]) => {
  const ids = new Set(devices.map((d) => d.id));
  return service.received.filter((p) => ids.has(p.device));
};

describe('push within reason, with the subscribe rate limits as shipped', () => {
  let t: TestApp;
  let service: Service;
  let elsewhere: Service;
  let cookie: string;

  beforeAll(async () => {
    service = await startPushService();
    elsewhere = await startPushService();
    // Only the one loopback service, by host:port: the other port is as foreign as any host.
    t = await startTestApp({ env: { PUSH_ALLOWED_HOSTS: new URL(service.origin).host } });
    cookie = await onboard(t, 'pia');
    await call(t, 'POST', '/api/toggle-status', cookie, { creator: 'pia' }); // Online: Pia answers
  });
  afterAll(async () => {
    await t?.close();
    await service?.close();
    await elsewhere?.close();
  });

  it('refuses an endpoint on a host that is not a push service, with push_endpoint_not_allowed', async () => {
    const { fan } = await askingFan(t, 'Can I get notifications?');
    const good = service.device().subscription;
    for (const endpoint of [
      'https://example.com/push/x',
      'https://fcm.googleapis.com.example.com/fcm/send/x',
      'http://fcm.googleapis.com/fcm/send/x',
      elsewhere.device().subscription.endpoint, // loopback, but not the listed port
    ]) {
      const res = await subscribe(t, fan, { ...good, endpoint });
      expect(res.status, endpoint).toBe(400);
      const body = (await res.json()) as { error: string; message: string };
      expect(body.error, endpoint).toBe('push_endpoint_not_allowed');
      expect(body.message.length).toBeGreaterThan(10);
    }
    expect(await storedFor(t, fan)).toEqual([]);
    // The service PUSH_ALLOWED_HOSTS names is taken.
    expect((await subscribe(t, fan, good)).status).toBe(200);
    expect(await storedFor(t, fan)).toEqual([{ endpoint: good.endpoint }]);
  });

  it('checks the host again before each push: a stored endpoint no longer allowed is dropped, not pushed', async () => {
    const { fan, questionId } = await askingFan(t, 'Will you tell me?');
    const stray = elsewhere.device();
    // As if it had been stored before the rule (or PUSH_ALLOWED_HOSTS changed since).
    const row = await t.db.db
      .selectFrom('fans')
      .selectAll()
      .where('fan_key', '=', fan.fanId)
      .executeTakeFirstOrThrow();
    await pushSubscriptions(t.db.db).save(row, stray.subscription, true);
    await answer(t, cookie, questionId, 'Yes.');
    await eventually(async () => (await storedFor(t, fan)).length === 0);
    await pushesSettled(t);
    expect(elsewhere.received).toEqual([]);
    expect(elsewhere.refused).toEqual([]);
  });

  it(`${ATTEMPTS} subscribes from one fan: most refused 429, at most ${PUSH_SUBSCRIPTIONS_PER_BROWSER} kept, one message pushes at most that many`, async () => {
    const { fan, questionId } = await askingFan(t, 'Flood?');
    const devices: Device[] = [];
    const started = Date.now();
    const answers = await bounded(ATTEMPTS, CONCURRENCY, async (i) => {
      const device = service.device();
      devices[i] = device;
      const res = await subscribe(t, fan, device.subscription);
      return {
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: (await res.json()) as { error?: string; message?: string },
      };
    });
    const tookMs = Date.now() - started;
    const accepted = answers.filter((a) => a.status === 200).length;
    const limited = answers.filter((a) => a.status === 429);
    console.info(
      `${ATTEMPTS} subscribe attempts in ${tookMs} ms: ${accepted} accepted, ${limited.length} refused 429`,
    );
    expect(accepted + limited.length).toBe(ATTEMPTS);
    // Ten a minute per browser (PUSH_SUBSCRIBE_RATE_LIMIT_PER_FAN).
    expect(accepted).toBeLessThanOrEqual(10);
    for (const refused of limited) {
      expect(refused.body).toMatchObject({ error: 'rate_limited' });
      expect(refused.body.message).toMatch(/Too many notification subscriptions/);
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    expect((await storedFor(t, fan)).length).toBe(PUSH_SUBSCRIPTIONS_PER_BROWSER);

    await answer(t, cookie, questionId, 'No flood.');
    await eventually(async () => pushesTo(service, devices).length === PUSH_SUBSCRIPTIONS_PER_BROWSER);
    await pushesSettled(t);
    expect(pushesTo(service, devices)).toHaveLength(PUSH_SUBSCRIPTIONS_PER_BROWSER);
  });
});

describe('push within reason, with the rate limits raised so the cap alone is measured', () => {
  let t: TestApp;
  let service: Service;
  let cookie: string;

  beforeAll(async () => {
    service = await startPushService();
    t = await startTestApp({
      env: {
        PUSH_ALLOWED_HOSTS: '127.0.0.1',
        PUSH_SUBSCRIBE_RATE_LIMIT_PER_IP: '1000000',
        PUSH_SUBSCRIBE_RATE_LIMIT_PER_FAN: '1000000',
      },
    });
    cookie = await onboard(t, 'pia');
    await call(t, 'POST', '/api/toggle-status', cookie, { creator: 'pia' });
  });
  afterAll(async () => {
    await t?.close();
    await service?.close();
  });

  it(`${ATTEMPTS} accepted subscribes leave ${PUSH_SUBSCRIPTIONS_PER_BROWSER}, the newest; one message pushes exactly those, once each however often it is triggered`, async () => {
    const { fan, questionId } = await askingFan(t, 'Cap?');
    const devices: Device[] = [];
    const started = Date.now();
    const statuses = await bounded(ATTEMPTS, CONCURRENCY, async (i) => {
      const device = service.device();
      devices[i] = device;
      return (await subscribe(t, fan, device.subscription)).status;
    });
    console.info(`${ATTEMPTS} subscribes (no rate limit) in ${Date.now() - started} ms`);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect((await storedFor(t, fan)).length).toBe(PUSH_SUBSCRIPTIONS_PER_BROWSER);

    // Past the cap, a new subscription replaces the oldest: the last ones subscribed are kept.
    const newest = Array.from({ length: PUSH_SUBSCRIPTIONS_PER_BROWSER }, () => service.device());
    for (const device of newest) expect((await subscribe(t, fan, device.subscription)).status).toBe(200);
    expect((await storedFor(t, fan)).map((r) => r.endpoint).sort()).toEqual(
      newest.map((d) => d.subscription.endpoint).sort(),
    );

    const replyId = await answer(t, cookie, questionId, 'Capped.');
    await eventually(async () => pushesTo(service, newest).length === newest.length);
    await pushesSettled(t);
    expect(pushesTo(service, devices)).toEqual([]);
    expect(new Set(pushesTo(service, newest).map((p) => p.device)).size).toBe(newest.length);

    // The same push is asked for again, twice at once (another process's outbox row, a retry), and
    // a delivery job is enqueued under another id: nobody is pushed a second time.
    const job = { kind: 'message' as const, id: replyId };
    await Promise.all([
      writeJob(t.db.db, JOBS.push, { kind: 'message', id: replyId }),
      writeJob(t.db.db, JOBS.push, { kind: 'message', id: replyId }),
    ]);
    await Promise.all([t.background.idle(), t.background.idle()]);
    const stored = await t.db.db
      .selectFrom('push_subscriptions')
      .select('id')
      .where('endpoint', '=', newest[0]!.subscription.endpoint)
      .executeTakeFirstOrThrow();
    await t.jobs.enqueue(
      PUSH_QUEUE,
      { ...job, subscriptionId: stored.id },
      { jobId: `${pushDeliveryJobId({ ...job, subscriptionId: stored.id })}-again` },
    );
    await pushesSettled(t);
    expect(pushesTo(service, newest)).toHaveLength(newest.length);
  });

  it('one endpoint is one device: subscribing it again, even at once, keeps one row and one push', async () => {
    const { fan, questionId } = await askingFan(t, 'Twice?');
    const device = service.device();
    const statuses = await Promise.all(
      Array.from({ length: 5 }, () => subscribe(t, fan, device.subscription).then((r) => r.status)),
    );
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(await storedFor(t, fan)).toEqual([{ endpoint: device.subscription.endpoint }]);
    // The same browser's second chat with Pia subscribing the same device takes it over: still one.
    const second = new FanBrowser(t);
    second.cookie = fan.cookie;
    expect((await second.ask('pia', 'Second chat')).status).toBe(200);
    expect((await subscribe(t, second, device.subscription)).status).toBe(200);
    const rows = await t.db.db
      .selectFrom('push_subscriptions')
      .select('fan_id')
      .where('endpoint', '=', device.subscription.endpoint)
      .execute();
    expect(rows).toHaveLength(1);
    // Back to the first chat, then one answer: one push.
    expect((await subscribe(t, fan, device.subscription)).status).toBe(200);
    await answer(t, cookie, questionId, 'Once.');
    await eventually(async () => pushesTo(service, [device]).length === 1);
    await pushesSettled(t);
    expect(pushesTo(service, [device])).toHaveLength(1);
  });
});
