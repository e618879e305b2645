import { type FakeOpenAI, startFakeOpenAI } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  eventually,
  FanBrowser,
  json,
  onboard,
  setCookies,
  startTestApp,
  type TestApp,
  twoApps,
} from '../helpers.ts';
import { openSse, type SseClient } from '../support/sse.ts';

/** Resolves when the server ends the stream; fails if it is still open after `ms`. */
async function endsWithin(s: SseClient, ms = 5_000): Promise<number> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    s.ended,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`stream still open after ${ms} ms`)), ms);
    }),
  ]);
  clearTimeout(timer);
  return performance.now() - started;
}

/** Makes a transfer link in `from` (its cookie) and redeems it in a new browser; returns that browser's cookie. */
async function moveToNewPhone(t: TestApp, from: FanBrowser, creator: string, redeemOn = t): Promise<string> {
  const made = await fetch(`${t.url}/api/fan-transfers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: from.cookie },
    body: JSON.stringify({ creator, fanId: from.fanId }),
  });
  expect(made.status).toBe(200);
  const token = new URL(((await json(made)) as unknown as { url: string }).url).hash.replace(
    /^#transfer=/,
    '',
  );
  const redeemed = await fetch(`${redeemOn.url}/api/fan-transfers/redeem`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  expect(redeemed.status).toBe(200);
  return `fp_fan=${setCookies(redeemed).fp_fan}`;
}

/** Every right is checked for as long as it is used: a stream ends when its right does. */
describe('a stream lasts as long as its right', () => {
  let t: TestApp;
  let cookie: string;
  const streams: SseClient[] = [];
  const open = async (path: string, headers: Record<string, string> = {}, app = t) => {
    const s = await openSse(`${app.url}${path}`, headers);
    streams.push(s);
    return s;
  };

  beforeAll(async () => {
    t = await startTestApp();
    cookie = await onboard(t, 'rita');
    // Online: questions wait for the creator, so nothing writes to a conversation behind a test's back.
    expect((await call(t, 'POST', '/api/toggle-status', cookie, { creator: 'rita' })).status).toBe(200);
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await t?.close();
  });

  it("a fan's stream ends when the chat moves to another browser, and hears nothing after", async () => {
    const oldPhone = new FanBrowser(t);
    await oldPhone.ask('rita', 'First question');
    const s = await open(`/api/events/fans/${oldPhone.fanId}?creator=rita`, { cookie: oldPhone.cookie });
    expect(s.status).toBe(200);
    // The stream is live before the move: a creator's answer reaches it.
    await call(t, 'POST', '/api/creators/username/rita/set-notice', cookie, { message: 'Before' });
    await s.next((e) => e.event === 'change');
    const before = s.events.length;

    const newPhone = await moveToNewPhone(t, oldPhone, 'rita');
    const tookMs = await endsWithin(s);
    console.log(`stream rights: fan stream ended ${tookMs.toFixed(0)} ms after the redeem answered`);
    // Not even the change the move itself made reached the old browser.
    expect(s.events.length).toBe(before);
    // The new phone asks; the old browser's chat log read and a new stream are refused, as today.
    const moved = new FanBrowser(t, oldPhone.fanId);
    moved.cookie = newPhone;
    expect((await moved.ask('rita', 'Asked on the new phone')).status).toBe(200);
    expect((await oldPhone.history('rita')).status).toBe(403);
    const again = await open(`/api/events/fans/${oldPhone.fanId}?creator=rita`, { cookie: oldPhone.cookie });
    expect(again.status).toBe(403);
    expect(s.events.length).toBe(before);
    // The new phone's own stream works.
    const mine = await open(`/api/events/fans/${oldPhone.fanId}?creator=rita`, { cookie: newPhone });
    expect(mine.status).toBe(200);
  });

  it("a dashboard's stream ends at sign-out, and a new one is refused", async () => {
    const session = await t.signIn();
    const s = await open('/api/events/creators/rita', { cookie: session });
    expect(s.status).toBe(200);
    // Another session of the same creator is not touched by this one's sign-out.
    const other = await open('/api/events/creators/rita', { cookie });
    const out = await fetch(`${t.url}/auth/logout`, { redirect: 'manual', headers: { cookie: session } });
    expect(out.status).toBe(302);
    const tookMs = await endsWithin(s);
    console.log(`stream rights: dashboard stream ended ${tookMs.toFixed(0)} ms after logout answered`);
    const count = s.events.length;
    await new FanBrowser(t).ask('rita', 'After the sign-out');
    await other.next((e) => e.event === 'change');
    expect(s.events.length).toBe(count);
    expect((await open('/api/events/creators/rita', { cookie: session })).status).toBe(401);
  });

  it("a dashboard's stream ends when its session expires", async () => {
    const session = await t.signIn();
    const s = await open('/api/events/creators/rita', { cookie: session });
    expect(s.status).toBe(200);
    const sessions = await t.db.db.selectFrom('sessions').select(['id', 'created_at']).execute();
    const newest = sessions.sort((a, b) => +new Date(b.created_at) - +new Date(a.created_at))[0]!;
    // Test-only: the session's time runs out (the sweep or the clock would do this).
    await t.db.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', newest.id)
      .execute();
    await endsWithin(s);
  });

  it("a fan's stream ends when the creator deletes the conversation", async () => {
    const fan = new FanBrowser(t);
    await fan.ask('rita', 'Delete me');
    const s = await open(`/api/events/fans/${fan.fanId}?creator=rita`, { cookie: fan.cookie });
    expect(s.status).toBe(200);
    const removed = await call(t, 'DELETE', `/api/chatlog/fan/${fan.fanId}?creator=rita`, cookie);
    expect(removed.status).toBe(200);
    await endsWithin(s);
    expect(s.events).toEqual([]);
  });

  it('every refusal past a cap is a 429 with Retry-After', async () => {
    const u = await startTestApp({ env: { LIVE_STREAMS_PER_IP: '3' } });
    try {
      const c = await onboard(u, 'capped');
      const fan = new FanBrowser(u);
      await fan.ask('capped', 'Hi');
      const held = [
        await open('/api/events/creators/capped', { cookie: c }, u),
        await open('/api/events/creators/capped', { cookie: c }, u),
        await open(`/api/events/fans/${fan.fanId}?creator=capped`, { cookie: fan.cookie }, u),
      ];
      expect(held.map((s) => s.status)).toEqual([200, 200, 200]);
      for (const path of ['/api/events/creators/capped', `/api/events/fans/${fan.fanId}?creator=capped`]) {
        const refused = await open(path, { cookie: `${c}; ${fan.cookie}` }, u);
        expect(refused.status, path).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(JSON.parse(refused.body)).toEqual({ error: 'too_many_streams', message: expect.any(String) });
      }
      held[0]!.close();
      await eventually(async () => {
        const next = await open('/api/events/creators/capped', { cookie: c }, u);
        if (next.status !== 200) next.close();
        return next.status === 200;
      });
    } finally {
      await u.close();
    }
  });

  it('a process holds at most LIVE_STREAMS_PER_PROCESS streams; the per-fan cap answers Retry-After too', async () => {
    const u = await startTestApp({ env: { LIVE_STREAMS_PER_PROCESS: '6' } });
    try {
      const c = await onboard(u, 'full');
      const fan = new FanBrowser(u);
      await fan.ask('full', 'Hi');
      for (let i = 0; i < 5; i++) {
        expect(
          (await open(`/api/events/fans/${fan.fanId}?creator=full`, { cookie: fan.cookie }, u)).status,
        ).toBe(200);
      }
      const perFan = await open(`/api/events/fans/${fan.fanId}?creator=full`, { cookie: fan.cookie }, u);
      expect(perFan.status).toBe(429);
      expect(perFan.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await open('/api/events/creators/full', { cookie: c }, u)).status).toBe(200);
      const full = await open('/api/events/creators/full', { cookie: c }, u);
      expect(full.status).toBe(429);
      expect(full.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(JSON.parse(full.body)).toEqual({ error: 'too_many_streams', message: expect.any(String) });
    } finally {
      await u.close();
    }
  });
});

describe('stream lifetime and the brake on fan ids', () => {
  let u: TestApp;
  let cookie: string;
  beforeAll(async () => {
    u = await startTestApp({ env: { LIVE_STREAM_MAX_SECONDS: '1', FAN_READ_RATE_LIMIT_PER_IP: '4' } });
    cookie = await onboard(u, 'brief');
  });
  afterAll(async () => {
    await u?.close();
  });

  it('ends a stream after LIVE_STREAM_MAX_SECONDS; the reconnect is checked anew and resumes', async () => {
    const s = await openSse(`${u.url}/api/events/creators/brief`, { cookie });
    try {
      expect(s.status).toBe(200);
      const tookMs = await endsWithin(s, 5_000);
      expect(tookMs).toBeGreaterThan(500);
      const again = await openSse(`${u.url}/api/events/creators/brief`, { cookie, 'last-event-id': '0' });
      expect(again.status).toBe(200);
      // Missed something meanwhile (Last-Event-ID is behind): told to sync, after its right is checked.
      await again.next((e) => e.event === 'sync');
      again.close();
    } finally {
      s.close();
    }
  });

  it('fan streams count against the per-address fan read limit, with chat log reads', async () => {
    const stranger = new FanBrowser(u);
    // Two reads and two stream attempts on unused fan ids (404 each), then the brake.
    expect((await stranger.history('brief')).status).toBe(200);
    expect((await stranger.history('brief')).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const s = await openSse(`${u.url}/api/events/fans/mobile_fan_guess${i}?creator=brief`, {
        cookie: stranger.cookie,
      });
      expect(s.status).toBe(404);
    }
    const braked = await openSse(`${u.url}/api/events/fans/mobile_fan_guess9?creator=brief`, {
      cookie: stranger.cookie,
    });
    expect(braked.status).toBe(429);
    expect(Number(braked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(JSON.parse(braked.body)).toEqual({ error: 'rate_limited', message: expect.any(String) });
    expect((await stranger.history('brief')).status).toBe(429);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('rights across two api processes', () => {
  const apps = twoApps('duo');

  it('a transfer redeemed on one api ends the old browser stream held by the other', async () => {
    const { a, b, cookie } = apps;
    // Online: the question waits for the creator, so nothing else writes to the conversation.
    expect((await call(a, 'POST', '/api/toggle-status', cookie, { creator: 'duo' })).status).toBe(200);
    const oldPhone = new FanBrowser(a);
    await oldPhone.ask('duo', 'On A');
    const s = await openSse(`${b.url}/api/events/fans/${oldPhone.fanId}?creator=duo`, {
      cookie: oldPhone.cookie,
    });
    try {
      expect(s.status).toBe(200);
      await moveToNewPhone(a, oldPhone, 'duo', a);
      await endsWithin(s);
      expect(s.events).toEqual([]);
    } finally {
      s.close();
    }
  });

  it('a sign-out on one api ends that session dashboard stream on the other', async () => {
    const { a, b } = apps;
    const session = await a.signIn();
    const s = await openSse(`${b.url}/api/events/creators/duo`, { cookie: session });
    try {
      expect(s.status).toBe(200);
      await fetch(`${a.url}/auth/logout`, { redirect: 'manual', headers: { cookie: session } });
      await endsWithin(s);
    } finally {
      s.close();
    }
  });
});

describe('no draft reaches a browser that lost the chat', () => {
  let t: TestApp;
  let openai: FakeOpenAI;
  beforeAll(async () => {
    openai = await startFakeOpenAI();
    openai.answerWith(() => 'Water it once a week and keep it in the light.');
    openai.streamWordsEvery(60);
    t = await startTestApp({ env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: openai.baseUrl } });
    await onboard(t, 'sprout');
  });
  afterAll(async () => {
    await t?.close();
    await openai?.close();
  });

  it('the old phone stream ends at the redeem; the drafts of the question asked on the new phone go to it only', async () => {
    const oldPhone = new FanBrowser(t);
    await oldPhone.ask('sprout', 'Hi');
    await eventually(
      async () => (await oldPhone.messages('sprout')).some((m) => m.from === 'Creatorai'),
      10_000,
    );
    const old = await openSse(`${t.url}/api/events/fans/${oldPhone.fanId}?creator=sprout`, {
      cookie: oldPhone.cookie,
    });
    try {
      expect(old.status).toBe(200);
      const newCookie = await moveToNewPhone(t, oldPhone, 'sprout');
      const fresh = await openSse(`${t.url}/api/events/fans/${oldPhone.fanId}?creator=sprout`, {
        cookie: newCookie,
      });
      try {
        expect(fresh.status).toBe(200);
        const newPhone = new FanBrowser(t, oldPhone.fanId);
        newPhone.cookie = newCookie;
        expect((await newPhone.ask('sprout', 'How often do I water it?')).status).toBe(200);
        await fresh.next((e) => e.event === 'draft' && JSON.parse(e.data).done === true, 15_000);
        await endsWithin(old, 1_000);
        expect(old.events.filter((e) => e.event === 'draft' || e.event === 'change')).toEqual([]);
      } finally {
        fresh.close();
      }
    } finally {
      old.close();
    }
  });
});
