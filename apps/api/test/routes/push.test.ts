import { type FakeOpenAI, startFakeOpenAI } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, FanBrowser, json, onboard, startTestApp, type TestApp } from '../helpers.ts';
import { type Device, startPushService } from '../support/push-service.ts';

/**
 * Web Push end to end with the real web-push library: a loopback push service checks every push's
 * VAPID signature and decrypts it as a browser would (RFC 8291), so what is asserted is what a
 * fan's device would show.
 */
describe('web push to fans', () => {
  let t: TestApp;
  let service: Awaited<ReturnType<typeof startPushService>>;
  let openai: FakeOpenAI;
  let cookie: string;

  const subscribe = (fan: FanBrowser, device: Device, extra: Record<string, unknown> = {}) =>
    fetch(`${t.url}/api/push/subscriptions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(fan.cookie ? { cookie: fan.cookie } : {}) },
      body: JSON.stringify({ creator: 'pia', fanId: fan.fanId, subscription: device.subscription, ...extra }),
    });
  const pushesTo = (device: Device) => service.received.filter((p) => p.device === device.id);
  const questionId = async (fan: FanBrowser, text: string) =>
    (await fan.messages('pia')).find((m) => m.message === text)!.id;

  beforeAll(async () => {
    service = await startPushService();
    openai = await startFakeOpenAI();
    openai.answerWith(() => 'The AI says: feed it twice a day.');
    t = await startTestApp({
      env: {
        PUSH_ALLOWED_HOSTS: '127.0.0.1',
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: openai.baseUrl,
      },
    });
    cookie = await onboard(t, 'pia');
    // Online: questions wait for Pia, so the test decides who answers.
    await call(t, 'POST', '/api/toggle-status', cookie, { creator: 'pia' });
  });
  afterAll(async () => {
    await t?.close();
    await service?.close();
    await openai?.close();
  });

  it('gives the VAPID public key browsers subscribe with', async () => {
    const res = await fetch(`${t.url}/api/push/key`);
    expect(res.status).toBe(200);
    const { publicKey } = (await res.json()) as { publicKey: string };
    const point = Buffer.from(publicKey, 'base64url');
    expect(point.length).toBe(65);
    expect(point[0]).toBe(4);
  });

  it("pushes the creator's answer to every device of the fan who asked, encrypted and signed", async () => {
    const fan = new FanBrowser(t);
    expect((await fan.ask('pia', 'How often do I feed my starter?')).status).toBe(200);
    const phone = service.device();
    const laptop = service.device();
    expect((await subscribe(fan, phone)).status).toBe(200);
    expect((await subscribe(fan, laptop, { preview: false })).status).toBe(200);

    const id = await questionId(fan, 'How often do I feed my starter?');
    const answered = await call(t, 'POST', '/api/answer', cookie, {
      creator: 'pia',
      messageId: id,
      response: 'Twice a day, with equal weights of flour and water.',
    });
    expect(answered.status).toBe(200);
    const reply = ((await json(answered)) as unknown as { message: { id: string } }).message;

    await eventually(async () => pushesTo(phone).length === 1 && pushesTo(laptop).length === 1);
    const [onPhone] = pushesTo(phone);
    expect(onPhone!.payload).toEqual({
      title: 'Pia Tester replied',
      body: 'Twice a day, with equal weights of flour and water.',
      url: `/pwa/pia?message=${reply.id}`,
      tag: 'chat-pia',
    });
    expect(onPhone!.vapid.aud).toBe(service.origin);
    expect(onPhone!.vapid.publicKey).toBe(
      ((await (await fetch(`${t.url}/api/push/key`)).json()) as { publicKey: string }).publicKey,
    );
    expect(onPhone!.ttl).toBeGreaterThan(0);
    // The fan turned previews off on the laptop: nothing of the message shows there.
    expect(pushesTo(laptop)[0]!.payload).toMatchObject({ body: 'You have a new message. Tap to read it.' });
    // Another fan heard nothing.
    expect(service.received.every((p) => p.device === phone.id || p.device === laptop.id)).toBe(true);
  });

  it('pushes the AI answer too, and retries while the push service is down', async () => {
    await call(t, 'POST', '/api/toggle-status', cookie, { creator: 'pia' }); // Offline: the AI answers
    try {
      const fan = new FanBrowser(t);
      // Subscribing needs the fan to exist: the first question comes first (and is answered at once).
      expect((await fan.ask('pia', 'Hello?')).status).toBe(200);
      const device = service.device();
      expect((await subscribe(fan, device)).status).toBe(200);
      await eventually(async () => (await fan.messages('pia')).some((m) => m.from === 'Creatorai'));
      // The first answer's push may or may not have found the device yet; count from when it is done.
      await t.background.idle();
      const before = pushesTo(device).length;
      service.failNext(1);
      expect((await fan.ask('pia', 'And the flour?')).status).toBe(200);
      const push = await eventually(async () => pushesTo(device)[before], 20_000);
      expect(push.payload).toMatchObject({ title: "Pia Tester's AI assistant replied", tag: 'chat-pia' });
      expect(service.refused.some((r) => r.device === device.id && r.status === 503)).toBe(true);
    } finally {
      await call(t, 'POST', '/api/toggle-status', cookie, { creator: 'pia' });
    }
  });

  it('deletes a subscription the push service says is gone', async () => {
    const fan = new FanBrowser(t);
    expect((await fan.ask('pia', 'Are you there?')).status).toBe(200);
    const device = service.device();
    expect((await subscribe(fan, device)).status).toBe(200);
    service.expire(device.id);
    const id = await questionId(fan, 'Are you there?');
    await call(t, 'POST', '/api/answer', cookie, { creator: 'pia', messageId: id, response: 'Yes!' });
    await eventually(async () => {
      const left = await t.db.db
        .selectFrom('push_subscriptions')
        .select('id')
        .where('endpoint', '=', device.subscription.endpoint)
        .executeTakeFirst();
      return left === undefined;
    });
    expect(service.refused.some((r) => r.device === device.id && r.status === 410)).toBe(true);
  });

  it('pushes an announcement when the creator chooses to, and the history says how many devices', async () => {
    const before = service.received.length;
    const quiet = await call(t, 'POST', '/api/creators/username/pia/set-notice', cookie, {
      message: 'Not pushed.',
    });
    expect(quiet.status).toBe(200);
    const loud = await call(t, 'POST', '/api/creators/username/pia/set-notice', cookie, {
      message: 'Live Q&A tonight at 8!',
      push: true,
    });
    expect(loud.status).toBe(200);
    const devices = await t.db.db.selectFrom('push_subscriptions').select('id').execute();
    await eventually(
      async () =>
        service.received.filter((p) => (p.payload as { body?: string }).body === 'Live Q&A tonight at 8!')
          .length ===
        devices.length - 1, // the laptop has previews off
    );
    const history = (await json(
      await call(t, 'GET', '/api/creators/username/pia/notice-history', cookie),
    )) as unknown as { message: string; pushed: boolean; pushedCount: number }[];
    await eventually(async () => {
      const h = (await json(
        await call(t, 'GET', '/api/creators/username/pia/notice-history', cookie),
      )) as unknown as { message: string; pushed: boolean; pushedCount: number }[];
      return h.find((n) => n.message === 'Live Q&A tonight at 8!')?.pushedCount === devices.length;
    });
    expect(history.find((n) => n.message === 'Not pushed.')).toMatchObject({ pushed: false, pushedCount: 0 });
    expect(
      service.received.slice(before).some((p) => (p.payload as { body?: string }).body === 'Not pushed.'),
    ).toBe(false);
  });

  it('refuses bad subscriptions with a clear error', async () => {
    const fan = new FanBrowser(t);
    expect((await fan.ask('pia', 'Bad input time')).status).toBe(200);
    const good = service.device().subscription;
    const cases: [Record<string, unknown>, number][] = [
      [{ ...good, keys: { p256dh: 'not-a-key', auth: good.keys.auth } }, 400],
      [{ ...good, keys: { p256dh: good.keys.p256dh, auth: Buffer.alloc(8).toString('base64url') } }, 400],
      [{ ...good, endpoint: 'not a url' }, 400],
      [{ ...good, endpoint: 'http://10.0.0.5/push/x' }, 400],
      [{ ...good, endpoint: 'https://169.254.169.254/latest/meta-data' }, 400],
      [{ ...good, endpoint: 'https://localhost/push/x' }, 400],
      [{ ...good, endpoint: `https://push.example/${'x'.repeat(3000)}` }, 400],
      [{ endpoint: good.endpoint }, 400],
    ];
    for (const [subscription, status] of cases) {
      const res = await fetch(`${t.url}/api/push/subscriptions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: fan.cookie },
        body: JSON.stringify({ creator: 'pia', fanId: fan.fanId, subscription }),
      });
      expect(res.status, JSON.stringify(subscription).slice(0, 120)).toBe(status);
      expect(await res.json()).toHaveProperty('message');
    }
    // Another browser cannot subscribe for this fan; an unknown fan has nothing to be told.
    const stranger = new FanBrowser(t, fan.fanId);
    expect((await subscribe(stranger, service.device())).status).toBe(403);
    expect((await subscribe(new FanBrowser(t), service.device())).status).toBe(404);
  });

  it('unsubscribes a device', async () => {
    const fan = new FanBrowser(t);
    expect((await fan.ask('pia', 'Unsubscribe me later')).status).toBe(200);
    const device = service.device();
    expect((await subscribe(fan, device)).status).toBe(200);
    const res = await fetch(`${t.url}/api/push/subscriptions`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint: device.subscription.endpoint }),
    });
    expect(await res.json()).toEqual({ success: true, removed: 1 });
  });
});
