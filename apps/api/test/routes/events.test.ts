import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type FakeOpenAI, startFakeOpenAI } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  eventually,
  FanBrowser,
  json,
  onboard,
  startTestApp,
  type TestApp,
  twoApps,
} from '../helpers.ts';
import { openSse, type SseClient } from '../support/sse.ts';

const kindIs = (kind: string) => (e: { event: string; data: string }) =>
  e.event === 'change' && (JSON.parse(e.data) as { kind: string }).kind === kind;

/** One event stream per dashboard and per fan chat; changes arrive as they commit. */
describe('live event streams', () => {
  let t: TestApp;
  let cookie: string;
  let other: string;
  let chatbotId: string;
  const streams: SseClient[] = [];
  const open = async (path: string, headers: Record<string, string> = {}, app = t) => {
    const s = await openSse(`${app.url}${path}`, headers);
    streams.push(s);
    return s;
  };

  beforeAll(async () => {
    t = await startTestApp();
    cookie = await onboard(t, 'liv');
    other = await onboard(t, 'lou');
    chatbotId = (
      (await json(await call(t, 'GET', '/api/creators/username/liv/chatbot', cookie))) as { id: string }
    ).id;
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await t?.close();
  });

  it("tells the creator's dashboard about messages, status, announcements, knowledge and credits", async () => {
    const s = await open('/api/events/creators/liv', { cookie });
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(s.headers.get('x-accel-buffering')).toBe('no');
    // A stream keeps the security headers that apply to it, not a document's (its header is held
    // for as long as it is open).
    expect(s.headers.get('x-content-type-options')).toBe('nosniff');
    expect(s.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(s.headers.get('content-security-policy')).toBeNull();
    expect(s.headers.get('x-frame-options')).toBeNull();

    const fan = new FanBrowser(t);
    await fan.ask('liv', 'Hello there');
    await s.next(kindIs('messages'));
    await call(t, 'POST', '/api/toggle-status', cookie, { creator: 'liv' });
    await s.next(kindIs('status'));
    await call(t, 'POST', '/api/creators/username/liv/set-notice', cookie, { message: 'Live Friday' });
    await s.next(kindIs('notice'));
    await call(t, 'POST', '/api/add-knowledge', cookie, { chatbotId, url: 'https://example.com/a' });
    await s.next(kindIs('knowledge'));
    const creator = await t.db.db
      .selectFrom('creators')
      .select('id')
      .where('username', '=', 'liv')
      .executeTakeFirstOrThrow();
    await t.db.db
      .insertInto('credit_ledger')
      .values({ creator_id: creator.id, delta: 5, reason: 'adjustment' })
      .execute();
    await s.next(kindIs('credits'));
    // Every event carries the version it follows as its id.
    expect(s.events.every((e) => /^\d+$/.test(e.id ?? ''))).toBe(true);
  });

  it("tells a fan's chat about its own conversation and the creator's face, and nothing of other fans", async () => {
    const fan = new FanBrowser(t);
    const stranger = new FanBrowser(t);
    const asked = (await json(await fan.ask('liv', 'Mine'))) as unknown as { message: { id: string } };
    await stranger.ask('liv', 'Not yours');
    const s = await open(`/api/events/fans/${fan.fanId}?creator=liv`, { cookie: fan.cookie });
    expect(s.status).toBe(200);
    await stranger.ask('liv', 'Still not yours');
    await new Promise((r) => setTimeout(r, 300));
    expect(s.events).toEqual([]);

    const sentAt = performance.now();
    const answered = await call(t, 'POST', '/api/answer', cookie, {
      creator: 'liv',
      messageId: asked.message.id,
      response: 'An answer',
    });
    const storedAt = performance.now();
    expect(answered.status).toBe(200);
    const event = await s.next(kindIs('messages'));
    console.log(
      `live: answer stored -> fan's stream in ${(event.at - storedAt).toFixed(1)} ms (request took ${(storedAt - sentAt).toFixed(1)} ms)`,
    );
    await call(t, 'POST', '/api/creators/username/liv/set-notice', cookie, { message: 'For fans too' });
    await s.next(kindIs('notice'));
  });

  it('refuses the wrong people, and a chat that has not started yet', async () => {
    const fan = new FanBrowser(t);
    await fan.ask('liv', 'Hi');
    for (const [path, headers, status] of [
      ['/api/events/creators/liv', { cookie: other }, 403],
      ['/api/events/creators/liv', {}, 401],
      [`/api/events/fans/${fan.fanId}?creator=liv`, {}, 403],
      [`/api/events/fans/${fan.fanId}?creator=liv`, { cookie: other }, 403],
      [`/api/events/fans/${fan.fanId}?creator=nobody`, { cookie: fan.cookie }, 404],
      ['/api/events/fans/mobile_fan_never_asked?creator=liv', { cookie: fan.cookie }, 404],
      [`/api/events/fans/${fan.fanId}`, { cookie: fan.cookie }, 400],
    ] as const) {
      const s = await open(path, headers);
      expect(s.status, path).toBe(status);
      const body = JSON.parse(s.body) as { error: string; message: string };
      expect(typeof body.error).toBe('string');
      expect(typeof body.message).toBe('string');
    }
  });

  it('resumes: a reconnect that missed a change is told to sync, one that missed nothing is not', async () => {
    // Saved replies set off nothing else (a status change may send the AI to waiting questions).
    const template = (title: string) =>
      call(t, 'POST', '/api/creators/username/liv/templates', cookie, { title, content: 'Thanks!' });
    const first = await open('/api/events/creators/liv', { cookie });
    await template('One');
    const seen = await first.next(kindIs('templates'));
    first.close();
    const caughtUp = await open('/api/events/creators/liv', { cookie, 'last-event-id': seen.id! });
    await new Promise((r) => setTimeout(r, 300));
    expect(caughtUp.events.filter((e) => e.event === 'sync')).toEqual([]);
    caughtUp.close();
    // A dashboard still connected hears of the second change: from then on the feed knows it, so a
    // reconnect from before it has missed it (without this, it could connect before the change is
    // recorded and be sent the change itself instead).
    const watcher = await open('/api/events/creators/liv', { cookie });
    await template('Two');
    await watcher.next(kindIs('templates'));
    watcher.close();
    const behind = await open('/api/events/creators/liv', { cookie, 'last-event-id': seen.id! });
    await behind.next((e) => e.event === 'sync');
  });

  it('holds at most 20 streams per dashboard (429 after), and ends them when the api shuts down', async () => {
    const u = await startTestApp();
    try {
      const c = await onboard(u, 'many');
      const held: SseClient[] = [];
      for (let i = 0; i < 20; i++) held.push(await open('/api/events/creators/many', { cookie: c }, u));
      expect(held.every((s) => s.status === 200)).toBe(true);
      const extra = await open('/api/events/creators/many', { cookie: c }, u);
      expect(extra.status).toBe(429);
      expect(JSON.parse(extra.body)).toMatchObject({ error: 'too_many_streams' });
      held[0]!.close();
      // Once the server has seen that stream close, its place is free again.
      await eventually(async () => {
        const next = await open('/api/events/creators/many', { cookie: c }, u);
        if (next.status === 200) held.push(next);
        else next.close();
        return next.status === 200;
      });
      const closing = u.app.close();
      await Promise.all(held.slice(1).map((s) => s.ended));
      await closing;
    } finally {
      await u.close().catch(() => {});
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('live events across two api processes', () => {
  const apps = twoApps('twin');

  it('a change written through one api reaches a dashboard streaming from the other', async () => {
    const { a, b, cookie } = apps;
    const s = await openSse(`${b.url}/api/events/creators/twin`, { cookie });
    try {
      expect(s.status).toBe(200);
      await new FanBrowser(a).ask('twin', 'Through A, seen on B');
      await s.next(kindIs('messages'));
    } finally {
      s.close();
    }
  });
});

describe('the AI answer, streamed to the fan as it is written', () => {
  let t: TestApp;
  let openai: FakeOpenAI;
  beforeAll(async () => {
    openai = await startFakeOpenAI();
    openai.answerWith(() => 'Water it once a week [not in knowledge] and keep it in the light.');
    openai.streamWordsEvery(120);
    t = await startTestApp({ env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: openai.baseUrl } });
    await onboard(t, 'drafty');
  });
  afterAll(async () => {
    await t?.close();
    await openai?.close();
  });

  it('sends growing drafts to the asking fan only, then the stored answer replaces them', async () => {
    const fan = new FanBrowser(t);
    const bystander = new FanBrowser(t);
    // Known before the question that is streamed: the conversations (and their streams) exist.
    await bystander.ask('drafty', 'Hello');
    await fan.ask('drafty', 'Hi');
    await eventually(async () => (await fan.messages('drafty')).some((m) => m.from === 'Creatorai'), 10_000);
    const s = await openSse(`${t.url}/api/events/fans/${fan.fanId}?creator=drafty`, {
      cookie: fan.cookie,
    });
    const other = await openSse(`${t.url}/api/events/fans/${bystander.fanId}?creator=drafty`, {
      cookie: bystander.cookie,
    });
    try {
      const asked = (await json(await fan.ask('drafty', 'How often do I water it?'))) as unknown as {
        message: { id: string };
      };
      const done = await s.next((e) => e.event === 'draft' && JSON.parse(e.data).done === true, 15_000);
      const drafts = s.events
        .filter((e) => e.event === 'draft' && e.at <= done.at)
        .map((e) => JSON.parse(e.data) as { replyTo: string; text: string; done: boolean });
      const partial = drafts.filter((d) => !d.done);
      expect(partial.length).toBeGreaterThanOrEqual(2);
      expect(partial.every((d) => d.replyTo === asked.message.id)).toBe(true);
      // Each draft extends the last; none shows the gap tag, whole or begun.
      for (let i = 1; i < partial.length; i++)
        expect(partial[i]!.text.startsWith(partial[i - 1]!.text)).toBe(true);
      expect(partial.some((d) => d.text.includes('['))).toBe(false);
      expect(partial[0]!.text.length).toBeLessThan('Water it once a week and keep it in the light.'.length);
      // The stored answer is announced before the draft is dropped.
      const stored = s.events.find((e) => e.event === 'change' && e.at <= done.at);
      expect(stored).toBeDefined();
      const reply = (await fan.messages('drafty')).find((m) => m.replyTo === asked.message.id);
      expect(reply?.message).toBe('Water it once a week and keep it in the light.');
      expect(other.events.filter((e) => e.event === 'draft')).toEqual([]);
    } finally {
      s.close();
      other.close();
    }
  });
});

/** Forces a full garbage collection (the flag set at run time, as --expose-gc would). */
const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/**
 * An open stream holds what it needs to send events, not the request it was opened by: Fastify's
 * request, its reply and the request's logger go with the handler (issue 39: 10,000 streams in one
 * api process). Each object is followed by a weak reference taken as the request arrives.
 */
describe("an open stream keeps no hold on Fastify's request", () => {
  let t: TestApp;
  const requests: { path: string; ref: WeakRef<object> }[] = [];
  const collected = async (path: string) => {
    // A weak reference clears only after the turn that read it.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    const entry = requests.find((r) => r.path === path);
    return entry !== undefined && entry.ref.deref() === undefined;
  };

  beforeAll(async () => {
    t = await startTestApp({
      onRoute: (route) => {
        if (!route.url.startsWith('/api/events/')) return;
        const hooks = route.onRequest === undefined ? [] : [route.onRequest].flat();
        route.onRequest = [
          ...hooks,
          (request, _reply, done) => {
            requests.push({ path: request.url.split('?')[0]!, ref: new WeakRef(request) });
            done();
          },
        ];
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("lets the dashboard's and the fan chat's requests go while their streams stay open", async () => {
    const cookie = await onboard(t, 'gcd');
    const dashboard = await openSse(`${t.url}/api/events/creators/gcd`, { cookie });
    const fan = new FanBrowser(t);
    await fan.ask('gcd', 'Hello there');
    const chat = await openSse(`${t.url}/api/events/fans/${fan.fanId}?creator=gcd`, {
      cookie: fan.cookie,
    });
    try {
      expect(dashboard.status).toBe(200);
      expect(chat.status).toBe(200);
      await expect.poll(() => collected('/api/events/creators/gcd')).toBe(true);
      await expect.poll(() => collected(`/api/events/fans/${fan.fanId}`)).toBe(true);
      // Both streams still deliver.
      await call(t, 'POST', '/api/toggle-status', cookie, { creator: 'gcd' });
      await dashboard.next(kindIs('status'));
      await chat.next(kindIs('status'));
    } finally {
      dashboard.close();
      chat.close();
    }
  });
});
