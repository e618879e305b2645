import type { IncomingMessage, ServerResponse } from 'node:http';
import { sql } from 'kysely';
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

const get = (t: TestApp, path: string, cookie: string, etag?: string | null) =>
  fetch(`${t.url}${path}`, {
    headers: { ...(cookie ? { cookie } : {}), ...(etag ? { 'if-none-match': etag } : {}) },
  });

/** The answer kept under a validator, and the key it is kept by (what the validator is made of). */
const keptUnder = (t: TestApp, tag: string) => {
  const found = [...t.app.answerCache.entries()].find(([, kept]) => kept.tag === tag);
  return found ?? (['', undefined] as const);
};

/**
 * Unchanged polls are answered 304 from the change feed's versions, and every kind of change
 * makes the next poll a full answer, whoever wrote it.
 */
describe('validators on polled reads', () => {
  let t: TestApp;
  let cookie: string;
  let otherCookie: string;
  let chatbotId: string;
  const dashboardPolls = [
    '/api/creators/username/val/stats?tz=UTC',
    '/api/creators/username/val/conversations',
    '/api/creators/username/val/messages',
    '/api/creators/username/val/fans',
    '/api/creators/username/val/status',
    '/api/creators/username/val/usage',
    '/api/creators/username/val/notice',
    '/api/creators/username/val/templates',
  ];

  beforeAll(async () => {
    t = await startTestApp();
    cookie = await onboard(t, 'val');
    otherCookie = await onboard(t, 'vic');
    const bot = (await json(
      await call(t, 'GET', '/api/creators/username/val/chatbot', cookie),
    )) as unknown as {
      id: string;
    };
    chatbotId = bot.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The id of the creator whose polls are validated (for writes made straight to the database). */
  const valId = async () =>
    (
      await t.db.db
        .selectFrom('creators')
        .select('id')
        .where('username', '=', 'val')
        .executeTakeFirstOrThrow()
    ).id;

  /** The validators of every dashboard poll now. */
  const snapshot = async () => {
    const tags = new Map<string, string>();
    for (const path of [...dashboardPolls, `/api/chatbots/${chatbotId}/knowledge/progress`]) {
      const res = await get(t, path, cookie);
      expect(res.status, path).toBe(200);
      const tag = res.headers.get('etag');
      expect(tag, path).toMatch(/^W\/"[\w-]+"$/);
      expect(res.headers.get('cache-control')).toBe('private, no-cache');
      tags.set(path, tag!);
    }
    return tags;
  };
  const expectAll = async (tags: Map<string, string>, status: 200 | 304) => {
    for (const [path, tag] of tags) {
      const res = await get(t, path, cookie, tag);
      expect(res.status, `${path} after a change`).toBe(status);
      if (status === 304) expect(await res.text()).toBe('');
    }
  };

  it('answers an unchanged dashboard poll with 304 and no body; another creator gets no 304', async () => {
    const tags = await snapshot();
    await expectAll(tags, 304);
    const [path, tag] = [...tags][0]!;
    // A validator stands for its own call only.
    const [otherPath] = [...tags][1]!;
    expect((await get(t, otherPath, cookie, tag)).status).toBe(200);
    expect((await get(t, path, otherCookie, tag)).status).toBe(403);
    expect((await get(t, path, '', tag)).status).toBe(401);
  });

  it.each([
    [
      'a fan asks',
      async () => {
        await new FanBrowser(t).ask('val', 'A question for the validators');
      },
    ],
    ['the creator goes Online', () => call(t, 'POST', '/api/toggle-status', cookie, { creator: 'val' })],
    [
      'an announcement',
      () => call(t, 'POST', '/api/creators/username/val/set-notice', cookie, { message: 'Live on Friday' }),
    ],
    [
      'a saved reply',
      () =>
        call(t, 'POST', '/api/creators/username/val/templates', cookie, { title: 'Hi', content: 'Hello!' }),
    ],
    [
      'a knowledge source',
      () => call(t, 'POST', '/api/add-knowledge', cookie, { chatbotId, url: 'https://example.com/notes' }),
    ],
    [
      'a write by another process (a worker storing an answer)',
      async () => {
        await t.db.db
          .insertInto('credit_ledger')
          .values({ creator_id: await valId(), delta: -1, reason: 'adjustment' })
          .execute();
      },
    ],
    [
      'a fan subscribing to the creator’s plan (the inbox marks subscribers)',
      async () => {
        await t.db.db
          .insertInto('fan_subscriptions')
          .values({
            creator_id: await valId(),
            provider_subscription_id: `sub_validators_${Date.now()}`,
            status: 'active',
          })
          .execute();
      },
    ],
  ])('makes the next poll a full answer after %s', async (_kind, change) => {
    const tags = await snapshot();
    await change();
    // Every poll that the change shows up in is a 200; the creator's inbox version covers them all.
    await eventually(async () => {
      for (const [path, tag] of tags) if ((await get(t, path, cookie, tag)).status !== 200) return false;
      return true;
    }, 3_000);
  });

  it('answers an unchanged poll before Fastify builds a request, only for the requester the route admits', async () => {
    const path = '/api/creators/username/val/stats?tz=Europe/Paris';
    // A response that records what is written to it (the shortcut writes a head and a body, or nothing).
    const response = () => {
      const written: { status?: number; head?: string[]; body?: string } = {};
      const res = {
        writeHead: (status: number, head: string[]) => Object.assign(written, { status, head }),
        end: (body?: Buffer) => Object.assign(written, { body: body?.toString() ?? '' }),
      };
      return { written, res: res as unknown as ServerResponse };
    };
    const ask = (headers: Record<string, string>, url = path) => {
      const r = response();
      const answered = t.app.pollShortcut(
        { method: 'GET', url, headers } as unknown as IncomingMessage,
        r.res,
      );
      return { answered, ...r.written };
    };
    // Before Fastify has routed the address once, it is Fastify's.
    expect(ask({ cookie }).answered).toBe(false);
    const first = await get(t, path, cookie);
    expect(first.status).toBe(200);
    const body = await first.text();
    const tag = first.headers.get('etag')!;
    // The kept answer is counted with its address (an address may run to 8 KB).
    expect(t.app.answerCache.info(path)?.size).toBe(Buffer.byteLength(body) + path.length);
    const mine = ask({ cookie });
    expect(mine.answered).toBe(true);
    expect(mine.status).toBe(200);
    expect(mine.body).toBe(body);
    const head = new Map<string, string>();
    for (let i = 0; i < mine.head!.length; i += 2) head.set(mine.head![i]!, mine.head![i + 1]!);
    expect(head.get('etag')).toBe(tag);
    expect(head.get('content-length')).toBe(String(Buffer.byteLength(body)));
    expect(head.get('x-content-type-options')).toBe('nosniff');
    expect(head.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(ask({ cookie, 'x-request-id': 'trace-7' }).head).toContain('trace-7');
    const unchanged = ask({ cookie, 'if-none-match': tag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.body).toBe('');
    // Another creator, no session, a forged session cookie, another method: nothing written, the
    // route's own rules answer them.
    const others: Record<string, string>[] = [
      { cookie: otherCookie },
      {},
      { cookie: `${cookie.split('=')[0]}=forged.sig` },
    ];
    for (const headers of others) {
      const other = ask(headers);
      expect(other.answered).toBe(false);
      expect(other.status).toBeUndefined();
    }
    const posted = response();
    expect(
      t.app.pollShortcut(
        { method: 'POST', url: path, headers: { cookie } } as unknown as IncomingMessage,
        posted.res,
      ),
    ).toBe(false);
    // A change: the kept answer no longer stands for the versions, the route answers.
    await new FanBrowser(t).ask('val', 'A question for the stats');
    await t.app.changes.caughtUp();
    expect(ask({ cookie }).answered).toBe(false);
  });

  it('answers an unchanged poll without a validator from the answer cache, never across requesters', async () => {
    const path = '/api/creators/username/val/messages';
    const first = await get(t, path, cookie);
    expect(first.status).toBe(200);
    const tag = first.headers.get('etag')!;
    const body = await first.text();
    const [key, kept] = keptUnder(t, tag);
    expect(kept?.body.toString()).toBe(body);
    // The next poll, with no If-None-Match, is the kept answer: shown by marking the kept copy.
    t.app.answerCache.set(key, { ...kept!, body: Buffer.from('{"messages":[],"marker":"replayed-marker"}') });
    const again = await get(t, path, cookie);
    expect(again.status).toBe(200);
    expect(again.headers.get('etag')).toBe(tag);
    expect(again.headers.get('cache-control')).toBe('private, no-cache');
    expect(again.headers.get('content-type')).toBe(kept!.type);
    // The security hooks' headers are on a replayed answer too.
    expect(again.headers.get('x-content-type-options')).toBe('nosniff');
    expect(again.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'));
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(await again.json()).toEqual({ messages: [], marker: 'replayed-marker' });
    // Asked for a fresh answer (a hard reload's Cache-Control: no-cache), the route answers again.
    const fresh0 = await fetch(`${t.url}${path}`, { headers: { cookie, 'cache-control': 'no-cache' } });
    expect(fresh0.status).toBe(200);
    expect(await fresh0.text()).not.toContain('replayed-marker');
    t.app.answerCache.set(key, { ...kept!, body: Buffer.from('{"messages":[],"marker":"replayed-marker"}') });
    // Another creator, and no session at all, get the route's own refusal, not the kept answer.
    expect((await get(t, path, otherCookie)).status).toBe(403);
    expect((await get(t, path, '')).status).toBe(401);
    const vics = await get(t, '/api/creators/username/vic/messages', otherCookie);
    expect(vics.status).toBe(200);
    expect(await vics.text()).not.toContain('replayed-marker');
    // A change: the next poll is read again, under a new validator.
    await new FanBrowser(t).ask('val', 'A question after the change');
    const fresh = await eventually(async () => {
      const res = await get(t, path, cookie);
      return res.headers.get('etag') !== tag ? res : null;
    }, 3_000);
    const text = await fresh.text();
    expect(text).not.toContain('replayed-marker');
    expect(text).toContain('A question after the change');
  });

  it("keeps a fan's chat per fan: another browser gets no kept answer, and the cache is bounded", async () => {
    const fan = new FanBrowser(t);
    await fan.ask('val', 'Mine alone');
    const path = `/api/chatlog/fan/${fan.fanId}?creator=val`;
    const first = await get(t, path, fan.cookie);
    expect(first.status).toBe(200);
    expect(keptUnder(t, first.headers.get('etag')!)[1]).toBeDefined();
    // Another browser asking for this fan's chat is refused by the chat's own rule.
    const other = new FanBrowser(t);
    await other.ask('val', 'Someone else');
    expect((await get(t, path, other.cookie)).status).toBe(403);
    expect((await get(t, path, '')).status).not.toBe(200);
    // The bound is on the bodies' bytes.
    expect(t.app.answerCache.maxSize).toBe(32 * 1024 * 1024);
    expect(t.app.answerCache.calculatedSize).toBeLessThanOrEqual(t.app.answerCache.maxSize);
  });

  it("a fan's chat is 304 until its own conversation or the creator's public face changes", async () => {
    const fan = new FanBrowser(t);
    const other = new FanBrowser(t);
    await fan.ask('val', 'First');
    await other.ask('val', 'Other fan');
    const path = `/api/chatlog/fan/${fan.fanId}?creator=val`;
    const read = () => get(t, path, fan.cookie);
    const first = await read();
    expect(first.status).toBe(200);
    const tag = first.headers.get('etag')!;
    expect(tag).toBeTruthy();
    expect((await get(t, path, fan.cookie, tag)).status).toBe(304);
    // Another fan writing does not touch this fan's validator.
    await other.ask('val', 'Still the other fan');
    expect((await get(t, path, fan.cookie, tag)).status).toBe(304);
    // Without this browser's cookie there is no shortcut (and no chat).
    expect((await get(t, path, other.cookie, tag)).status).toBe(403);
    // The creator answers: the next poll carries it.
    const list = (await json(
      await get(t, '/api/creators/username/val/conversations?filter=waiting', cookie),
    )) as {
      conversations: { fanId: string; newestPending: { id: string } | null }[];
    };
    const pending = list.conversations.find((c) => c.fanId === fan.fanId)?.newestPending;
    expect(pending).toBeTruthy();
    await call(t, 'POST', '/api/answer', cookie, {
      creator: 'val',
      messageId: pending!.id,
      response: 'Answered',
    });
    const after = await eventually(async () => {
      const res = await get(t, path, fan.cookie, tag);
      return res.status === 200 ? res : null;
    }, 3_000);
    const tag2 = after.headers.get('etag')!;
    expect(JSON.stringify(await after.json())).toContain('Answered');
    // The creator's status is part of the fan's chat.
    await call(t, 'POST', '/api/toggle-status', cookie, { creator: 'val' });
    await eventually(async () => (await get(t, path, fan.cookie, tag2)).status === 200, 3_000);

    const card = await get(t, '/api/public/creators/val', '');
    const cardTag = card.headers.get('etag')!;
    expect((await get(t, '/api/public/creators/val', '', cardTag)).status).toBe(304);
    await call(t, 'POST', '/api/creators/username/val/set-notice', cookie, { message: 'New notice' });
    await eventually(
      async () => (await get(t, '/api/public/creators/val', '', cardTag)).status === 200,
      3_000,
    );
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('validators across two api processes on one database', () => {
  const apps = twoApps('duo');

  it('agree on validators, see each other’s changes, and a sign-out on one ends the session on both', async () => {
    const { a, b, cookie } = apps;
    const path = '/api/creators/username/duo/stats';
    let tag = '';
    // B learns of writes through the change feed's NOTIFY: agreement comes within moments. A's
    // validator is read again on each try: validators turn over every 15 minutes, and a try may
    // fall on either side of that moment.
    await eventually(async () => {
      tag = (await get(a, path, cookie)).headers.get('etag')!;
      return (await get(b, path, cookie, tag)).status === 304;
    }, 3_000);
    await new FanBrowser(a).ask('duo', 'Through A');
    await eventually(async () => (await get(b, path, cookie, tag)).status === 200, 8_000);
    // B has the session in memory now; signing out on A ends it on B too.
    expect((await get(b, path, cookie)).status).toBe(200);
    expect(
      (await fetch(`${a.url}/auth/logout`, { headers: { cookie }, redirect: 'manual' })).status,
    ).toBeLessThan(400);
    await eventually(async () => (await get(b, path, cookie)).status === 401, 8_000);
  });
});

/**
 * When a polled address's data changes, every client polling it misses at once: one reads, the
 * others with the same validator wait for that answer (record 0096). The read is held back by a lock
 * on the table it reads, so the requests are known to overlap: the state is waited for, not time.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('one read for the clients that miss together', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await startTestApp();
    cookie = await onboard(t, 'herd');
    await askAnswered('A first question');
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A new fan's question, once its answer is written (nothing more is written for it after). */
  const askAnswered = async (message: string) => {
    const fan = new FanBrowser(t);
    await fan.ask('herd', message);
    await eventually(async () => (await fan.messages('herd')).some((m) => m.from !== 'fan'), 20_000);
    await t.app.changes.caughtUp();
  };

  /** The api's reads waiting for the lock on `fans`. */
  const blockedOnFans = async () =>
    Number(
      (
        await sql<{ n: string }>`select count(*) as n from pg_locks l
          join pg_class c on c.oid = l.relation join pg_stat_activity a on a.pid = l.pid
          where c.relname = 'fans' and not l.granted and a.query ilike 'select%'`.execute(t.db.db)
      ).rows[0]!.n,
    );

  /** Holds `fans` locked (a transaction of the test's own) until the returned function is called. */
  const lockFans = async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const held = t.db.db.transaction().execute(async (trx) => {
      await sql`lock table fans in access exclusive mode`.execute(trx);
      locked();
      await released;
    });
    await Promise.race([isLocked, held]);
    return async () => {
      release();
      await held;
    };
  };

  it('reads once for six clients that miss together, and answers them all alike', async () => {
    const path = '/api/creators/username/herd/fans';
    const unlock = await lockFans();
    try {
      const first = get(t, path, cookie);
      await expect.poll(blockedOnFans, { timeout: 10_000 }).toBe(1);
      const rest = Array.from({ length: 5 }, () => get(t, path, cookie));
      // Every one of the five waits for the first read; none reads (no second query is blocked).
      await expect.poll(() => t.app.readsUnderWay.waiting, { timeout: 10_000 }).toBe(5);
      expect(await blockedOnFans()).toBe(1);
      await unlock();
      const answers = await Promise.all([first, ...rest]);
      const bodies = await Promise.all(answers.map((r) => r.text()));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(new Set(answers.map((r) => r.headers.get('etag'))).size).toBe(1);
      expect(new Set(bodies).size).toBe(1);
      expect(JSON.parse(bodies[0]!)).toHaveLength(1);
      // Each is its own exchange.
      expect(new Set(answers.map((r) => r.headers.get('x-request-id'))).size).toBe(6);
      expect(t.app.readsUnderWay).toMatchObject({ size: 0, waiting: 0 });
    } finally {
      await unlock();
    }
  });

  it('does not share a read across requesters, nor with a client that asks for a fresh answer', async () => {
    const path = '/api/creators/username/herd/fans';
    const other = await onboard(t, 'herd2');
    await askAnswered('A second question');
    const unlock = await lockFans();
    try {
      const first = get(t, path, cookie);
      await expect.poll(blockedOnFans, { timeout: 10_000 }).toBe(1);
      // Another creator is refused by the route's own rule, without waiting for the owner's read.
      expect((await get(t, path, other)).status).toBe(403);
      // A hard reload reads for itself.
      const fresh = fetch(`${t.url}${path}`, { headers: { cookie, 'cache-control': 'no-cache' } });
      await expect.poll(blockedOnFans, { timeout: 10_000 }).toBe(2);
      expect(t.app.readsUnderWay.waiting).toBe(0);
      await unlock();
      const [a, b] = await Promise.all([first, fresh]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(JSON.parse(await a.text())).toHaveLength(2);
      expect(JSON.parse(await b.text())).toHaveLength(2);
    } finally {
      await unlock();
    }
  });
});
