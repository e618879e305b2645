import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, FanBrowser, json, onboard, startTestApp, type TestApp } from '../helpers.ts';

interface Summary {
  fanId: string;
  fanName: string | null;
  messageCount: number;
  pendingCount: number;
  lastActivityAt: string;
  latestFanMessage: { id: string; message: string } | null;
  latestReply: { id: string; from: string; message: string } | null;
  newestPending: { id: string; message: string; status: string } | null;
}
interface Page {
  conversations: Summary[];
  nextCursor: string | null;
}
interface ConversationPage {
  fanId: string;
  messages: { id: string; message: string; timestamp: string }[];
  olderCursor: string | null;
}

const FANS = 40;
const BIG_FAN = 7;
const BIG_FAN_MESSAGES = 130;

/**
 * The inbox past the specified latest-500 window: exact counts, every fan reachable in pages, a
 * conversation read from its newest end. Seeded straight into the database (620+ messages).
 */
describe('the inbox of a creator with many fans', () => {
  let t: TestApp;
  let cookie: string;
  let other: string;
  let creatorId: string;
  // Three days ago: nothing of the seed is today's in any zone.
  const base = Math.floor((Date.now() - 3 * 86_400_000) / 60_000) * 60_000;
  // Fan i last wrote at base + i minutes; every third fan has one question still waiting.
  const fanKey = (i: number) => `mobile_fan_seed_${String(i).padStart(3, '0')}`;
  const waiting = (i: number) => i % 3 === 0;

  const get = async <T>(path: string, who = cookie) => {
    const res = await call(t, 'GET', path, who);
    return { status: res.status, body: (await json(res)) as unknown as T };
  };

  beforeAll(async () => {
    t = await startTestApp();
    cookie = await onboard(t, 'ina');
    other = await onboard(t, 'ole');
    const db = t.db.db;
    creatorId = (
      await db.selectFrom('creators').select('id').where('username', '=', 'ina').executeTakeFirstOrThrow()
    ).id;
    const fans = await db
      .insertInto('fans')
      .values(
        Array.from({ length: FANS }, (_, i) => ({
          creator_id: creatorId,
          fan_key: fanKey(i),
          name: i === 33 ? 'Zoë 100%_Real' : `Seed Fan ${i}`,
        })),
      )
      .returning(['id', 'fan_key'])
      .execute();
    const rowOf = new Map(fans.map((f) => [f.fan_key, f.id]));
    const rows: Record<string, unknown>[] = [];
    for (let i = 0; i < FANS; i++) {
      const fanId = rowOf.get(fanKey(i))!;
      const count = i === BIG_FAN ? BIG_FAN_MESSAGES : 12;
      for (let k = 0; k < count; k++) {
        const last = k === count - 1;
        // Pairs of messages share one instant (1 and 2, 3 and 4, … 79 and 80, where a page of 50
        // ends), so pages must break ties by id.
        const at = new Date(base - (count - Math.floor((k + 1) / 2) * 2) * 60_000 + i * 60_000);
        const fromFan = k % 2 === 0 || last;
        rows.push({
          creator_id: creatorId,
          fan_id: fanId,
          sender: fromFan ? 'fan' : k % 4 === 1 ? 'Creatorai' : 'creator',
          body: `fan ${i} message ${k}`,
          status: fromFan ? (last && waiting(i) ? 'pending' : 'answered') : null,
          fan_name: `Seed Fan ${i}`,
          created_at: new Date(at.getTime() + (last ? 60_000 : 0)),
        });
      }
    }
    await db
      .insertInto('messages')
      .values(rows as never)
      .execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts every fan, waiting question and reply exactly, past the latest 500 messages', async () => {
    const total = await t.db.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('creator_id', '=', creatorId)
      .executeTakeFirstOrThrow();
    expect(Number(total.n)).toBeGreaterThan(500);

    const { status, body } = await get<Record<string, number | string>>(
      '/api/creators/username/ina/stats?tz=UTC',
    );
    expect(status).toBe(200);
    const waitingFans = Array.from({ length: FANS }, (_, i) => i).filter(waiting).length;
    expect(body).toMatchObject({
      fans: FANS,
      pendingQuestions: waitingFans,
      waitingFans,
      activeFansToday: 0,
      todayResponses: 0,
      todayAiResponses: 0,
      credits: 1000,
      timeZone: 'UTC',
    });

    // Today's activity, through the api: a fan asks (the creator is Online, so it waits), the
    // creator answers it.
    const toggled = (await json(await call(t, 'POST', '/api/toggle-status', cookie, { creator: 'ina' }))) as {
      isOnline?: boolean;
      status?: string;
    };
    expect(JSON.stringify(toggled)).toMatch(/online/i);
    const fan = new FanBrowser(t);
    const asked = (await json(await fan.ask('ina', 'Live question'))) as unknown as {
      message: { id: string };
    };
    let now = (await get<Record<string, number>>('/api/creators/username/ina/stats?tz=Pacific/Kiritimati'))
      .body;
    expect(now).toMatchObject({ fans: FANS + 1, activeFansToday: 1, pendingQuestions: waitingFans + 1 });
    expect(
      (
        await call(t, 'POST', '/api/answer', cookie, {
          creator: 'ina',
          messageId: asked.message.id,
          response: 'Live answer',
        })
      ).status,
    ).toBe(200);
    now = (await get<Record<string, number>>('/api/creators/username/ina/stats')).body;
    expect(now).toMatchObject({ pendingQuestions: waitingFans, todayResponses: 1, todayAiResponses: 0 });
  });

  it('reaches every fan once, in pages by last activity; filters waiting ones and finds by name', async () => {
    const seen: Summary[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `&cursor=${cursor}` : '';
      const { status, body } = await get<Page>(`/api/creators/username/ina/conversations?limit=7${query}`);
      expect(status).toBe(200);
      expect(body.conversations.length).toBeLessThanOrEqual(7);
      seen.push(...body.conversations);
      cursor = body.nextCursor;
      pages++;
    } while (cursor && pages < 20);
    expect(new Set(seen.map((s) => s.fanId)).size).toBe(seen.length);
    expect(seen.length).toBe(FANS + 1);
    const times = seen.map((s) => Date.parse(s.lastActivityAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const big = seen.find((s) => s.fanId === fanKey(BIG_FAN))!;
    expect(big).toMatchObject({ messageCount: BIG_FAN_MESSAGES, pendingCount: 0, newestPending: null });
    expect(big.latestFanMessage?.message).toBe(`fan ${BIG_FAN} message ${BIG_FAN_MESSAGES - 1}`);
    const w = seen.find((s) => s.fanId === fanKey(9))!;
    expect(w.pendingCount).toBe(1);
    expect(w.newestPending).toMatchObject({ message: 'fan 9 message 11', status: 'pending' });
    expect(w.latestReply?.message).toBe('fan 9 message 9');

    const onlyWaiting = await get<Page>('/api/creators/username/ina/conversations?filter=waiting&limit=100');
    expect(onlyWaiting.body.conversations.map((c) => c.fanId).sort()).toEqual(
      Array.from({ length: FANS }, (_, i) => i)
        .filter(waiting)
        .map(fanKey)
        .sort(),
    );
    const answered = await get<Page>('/api/creators/username/ina/conversations?filter=answered&limit=100');
    expect(answered.body.conversations.every((c) => c.pendingCount === 0)).toBe(true);
    expect(answered.body.conversations.length + onlyWaiting.body.conversations.length).toBe(FANS + 1);

    // Search by part of the name, any case; LIKE wildcards are plain characters.
    const found = await get<Page>(
      `/api/creators/username/ina/conversations?q=${encodeURIComponent('zoË 100%')}`,
    );
    expect(found.body.conversations.map((c) => c.fanId)).toEqual([fanKey(33)]);
    const wildcard = await get<Page>(`/api/creators/username/ina/conversations?q=${encodeURIComponent('%')}`);
    expect(wildcard.body.conversations.map((c) => c.fanId)).toEqual([fanKey(33)]);
    const underscore = await get<Page>(`/api/creators/username/ina/conversations?q=_`);
    expect(underscore.body.conversations.map((c) => c.fanId)).toEqual([fanKey(33)]);
    const none = await get<Page>('/api/creators/username/ina/conversations?q=nobody');
    expect(none.body).toEqual({ conversations: [], nextCursor: null });
  });

  it('reads a conversation from its newest end, page by page, without gaps or repeats', async () => {
    const ids: string[] = [];
    let before: string | null = null;
    let first: ConversationPage | null = null;
    for (let i = 0; i < 10; i++) {
      const query: string = before ? `?before=${before}` : '';
      const { status, body } = await get<ConversationPage>(
        `/api/creators/username/ina/fans/${fanKey(BIG_FAN)}/conversation${query}`,
      );
      expect(status).toBe(200);
      first ??= body;
      ids.unshift(...body.messages.map((m) => m.id));
      before = body.olderCursor;
      if (!before) break;
    }
    expect(first!.messages).toHaveLength(50);
    expect(first!.messages.at(-1)!.message).toBe(`fan ${BIG_FAN} message ${BIG_FAN_MESSAGES - 1}`);
    expect(new Set(ids).size).toBe(BIG_FAN_MESSAGES);
    // The same messages, in the same order, as the specified whole-conversation call.
    const whole = await get<{ id: string }[]>(`/api/creators/username/ina/fans/${fanKey(BIG_FAN)}/messages`);
    expect(ids).toEqual(whole.body.map((m) => m.id));
  });

  it('refuses bad cursors and zones with a 400, other creators with a 403, unknown fans with a 404', async () => {
    const forged = Buffer.from('2026-01-01T00:00:00.000000Z|not-a-uuid').toString('base64url');
    for (const path of [
      `/api/creators/username/ina/conversations?cursor=${forged}`,
      '/api/creators/username/ina/conversations?cursor=abc',
      `/api/creators/username/ina/fans/${fanKey(1)}/conversation?before=${forged}`,
      '/api/creators/username/ina/conversations?filter=everything',
      '/api/creators/username/ina/stats?tz=Mars/Olympus',
      '/api/creators/username/ina/conversations?limit=0',
    ]) {
      const { status, body } = await get<{ error: string; message: string }>(path);
      expect(status, path).toBe(400);
      expect(typeof body.error).toBe('string');
      expect(typeof body.message).toBe('string');
    }
    expect((await get('/api/creators/username/ina/conversations', other)).status).toBe(403);
    expect((await get('/api/creators/username/ina/stats', other)).status).toBe(403);
    expect((await get(`/api/creators/username/ina/fans/${fanKey(1)}/conversation`, other)).status).toBe(403);
    expect((await get(`/api/creators/username/ole/fans/${fanKey(1)}/conversation`, other)).status).toBe(404);
    expect((await get('/api/creators/username/ina/stats', '')).status).toBe(401);
  });
});
