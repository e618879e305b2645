import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { type FakeOpenAI, startFakeOpenAI } from '@fanpilot/testkit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  eventually,
  FanBrowser,
  identity,
  json,
  onboard,
  PNG_1PX,
  sent,
  setCookies,
  startTestApp,
  type TestApp,
} from '../helpers.ts';

async function countMessages(t: TestApp) {
  const row = await t.db.db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('fan chat', () => {
  let t: TestApp;
  let cara: string;
  beforeAll(async () => {
    t = await startTestApp();
    cara = await onboard(t, 'cara');
    const dino = await onboard(t, 'dino');
    // Online, so the AI (which answers every question while Offline) stays out of these tests.
    await call(t, 'POST', '/api/toggle-status', cara, { creator: 'cara' });
    await call(t, 'POST', '/api/toggle-status', dino, { creator: 'dino' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('stores a question as pending and binds the fan id to an httpOnly, SameSite=Lax fan cookie', async () => {
    const fan = new FanBrowser(t);
    const res = await fan.ask('cara', '  Hello Cara!  ', { fanName: 'Finn' });
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('fp_fan='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    const body = await json(res);
    expect(body).toMatchObject({
      success: true,
      aiWillAnswer: false,
      message: { from: 'fan', message: 'Hello Cara!', status: 'pending', replyTo: null },
    });
    const message = body.message as unknown as { created_at: string; timestamp: string };
    expect(message.created_at).toBe(message.timestamp);
    expect(Number.isNaN(Date.parse(message.created_at))).toBe(false);

    // The same browser keeps its cookie on the next ask.
    const again = await fan.ask('cara', 'Still there?');
    expect(again.status).toBe(200);
    expect(setCookies(again).fp_fan).toBeUndefined();
  });

  it('hands a new fan its cookie on the first history read, so a lost first answer does not lock it out', async () => {
    const fan = new FanBrowser(t);
    const first = await fan.history('cara');
    expect(first.status).toBe(200);
    expect(fan.cookie).toMatch(/^fp_fan=/);
    // The first question's answer is lost on the way back: the browser keeps the cookie it had.
    const held = fan.cookie;
    await fan.ask('cara', 'Did this arrive?');
    fan.cookie = held;
    const retry = await fan.ask('cara', 'Did this arrive?');
    expect(retry.status).toBe(200);
    expect((await fan.messages('cara')).map((m) => m.message)).toContain('Did this arrive?');
  });

  it("answers the fan's history oldest first, with the creator's card, notice and online state", async () => {
    await call(t, 'POST', '/api/creators/username/cara/set-notice', cara, { message: 'Live Q&A on Friday' });
    const fan = new FanBrowser(t);
    await fan.ask('cara', 'First');
    await fan.ask('cara', 'Second');
    const res = await fan.history('cara');
    expect(res.status).toBe(200);
    // Kept by no shared cache, revalidated on every poll (test/routes/conditional.test.ts).
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(res.headers.get('etag')).toMatch(/^W\//);
    const body = await json(res);
    expect((body.messages as { message: string }[]).map((m) => m.message)).toEqual(['First', 'Second']);
    expect(body.messages).toEqual([
      expect.objectContaining({ id: expect.any(String), from: 'fan', created_at: expect.any(String) }),
      expect.objectContaining({ from: 'fan', status: 'pending' }),
    ]);
    expect(body.creator).toMatchObject({
      username: 'cara',
      name: 'Cara Tester',
      isOnline: true,
      statusText: 'Online - Creator responding',
      notice: { message: 'Live Q&A on Friday' },
    });
    expect(body).toMatchObject({
      isOnline: true,
      statusText: 'Online - Creator responding',
      notice: { message: 'Live Q&A on Friday', sentCount: expect.any(Number) },
    });
    // Without ?creator the page still finds its conversation.
    const plain = await json(await fan.history());
    expect((plain.messages as unknown[]).length).toBe(2);
    expect(plain.creator).toMatchObject({ username: 'cara' });
  });

  it('gives a new fan an empty chat, with the creator card when asked for one', async () => {
    const fan = new FanBrowser(t);
    const withCreator = await json(await fan.history('cara'));
    expect(withCreator).toMatchObject({ messages: [], creator: { username: 'cara' }, isOnline: true });
    const bare = await json(await fan.history());
    expect(bare).toEqual({
      messages: [],
      creator: null,
      notice: null,
      isOnline: false,
      statusText: 'Offline - AI responding',
    });
  });

  it('refuses every browser but the one that started the chat: no read, write or rename by fan id (403)', async () => {
    const fan = new FanBrowser(t);
    await fan.ask('cara', 'My knee hurts', { fanName: 'Finn' });
    const forbidden = async (res: Response) => {
      expect(res.status).toBe(403);
      const body = await json(res);
      expect(body).toEqual({ error: 'forbidden', message: expect.stringContaining('another browser') });
      expect(JSON.stringify(body)).not.toContain('knee');
    };
    // No cookie (a script, cleared cookies, another device), a forged cookie, another fan's cookie.
    const strangers = [
      new FanBrowser(t, fan.fanId),
      new FanBrowser(t, fan.fanId),
      new FanBrowser(t, fan.fanId),
    ];
    strangers[1]!.cookie = 'fp_fan=forged.value';
    const other = new FanBrowser(t);
    await other.ask('cara', 'Someone else');
    strangers[2]!.cookie = other.cookie;
    const before = await countMessages(t);
    for (const stranger of strangers) {
      const held = stranger.cookie;
      await forbidden(
        await fetch(
          `${t.url}/api/chatlog/fan/${fan.fanId}?creator=cara`,
          held ? { headers: { cookie: held } } : {},
        ),
      );
      await forbidden(
        await fetch(`${t.url}/api/chatlog/fan/${fan.fanId}`, held ? { headers: { cookie: held } } : {}),
      );
      const ask = await stranger.ask('cara', 'Pretending', { fanName: 'Mallory' });
      await forbidden(ask);
      expect(setCookies(ask).fp_fan).toBeUndefined();
    }
    expect(await countMessages(t)).toBe(before);
    const row = await t.db.db
      .selectFrom('fans')
      .select('name')
      .where('fan_key', '=', fan.fanId)
      .executeTakeFirst();
    expect(row?.name).toBe('Finn');
    // The browser that started it goes on.
    expect((await fan.ask('cara', 'Still me')).status).toBe(200);
    expect((await fan.messages('cara')).map((m) => m.message)).toEqual(['My knee hurts', 'Still me']);
  });

  it('reads without ?creator only the conversations this browser holds', async () => {
    const fan = new FanBrowser(t);
    await fan.ask('cara', 'To Cara from phone A');
    // Another browser uses the same fan id with another creator: that conversation is its own.
    const twin = new FanBrowser(t, fan.fanId);
    expect((await twin.ask('dino', 'To Dino from phone B')).status).toBe(200);
    const mine = await json(await fan.history());
    expect((mine.messages as { message: string }[]).map((m) => m.message)).toEqual(['To Cara from phone A']);
    expect(mine.creator).toMatchObject({ username: 'cara' });
    const theirs = await json(await twin.history());
    expect((theirs.messages as { message: string }[]).map((m) => m.message)).toEqual([
      'To Dino from phone B',
    ]);
    expect((await twin.history('cara')).status).toBe(403);
    expect((await fan.history('dino')).status).toBe(403);
  });

  it('an unknown fan id reads as a new fan: an empty chat of the same shape, nothing more', async () => {
    const unknown = `mobile_fan_${randomBytes(16).toString('hex')}`;
    const res = await fetch(`${t.url}/api/chatlog/fan/${unknown}?creator=cara`);
    expect(res.status).toBe(200);
    const body = await json(res);
    const fresh = await json(await new FanBrowser(t).history('cara'));
    expect(body).toEqual(fresh);
    expect(body.messages).toEqual([]);
  });

  it('lets the signed-in creator read their own fans, and no other creator, even knowing the fan id', async () => {
    const dino = await t.signIn(identity('dino'));
    const fan = new FanBrowser(t);
    await fan.ask('cara', 'For Cara only');
    const read = (cookie: string, query = '') =>
      fetch(`${t.url}/api/chatlog/fan/${fan.fanId}${query}`, { headers: { cookie } });
    const own = await read(cara, '?creator=cara');
    expect(own.status).toBe(200);
    expect(((await json(own)).messages as { message: string }[]).map((m) => m.message)).toEqual([
      'For Cara only',
    ]);
    // The creator's own read sets no fan cookie.
    expect(setCookies(own).fp_fan).toBeUndefined();
    expect(((await json(await read(cara))).messages as unknown[]).length).toBe(1);
    // Dino knows the id (say the fan also wrote to him), and still reads nothing of Cara's.
    for (const query of ['?creator=cara', '']) {
      const res = await read(dino, query);
      expect(res.status).toBe(403);
      expect(JSON.stringify(await json(res))).not.toContain('Cara only');
    }
    const dinosOwn = await json(await read(dino, '?creator=dino'));
    expect(dinosOwn.messages).toEqual([]);
    // Reading is all a creator may do as the fan: no writing or renaming in the fan's name.
    const ask = await fetch(`${t.url}/api/ask`, {
      method: 'POST',
      headers: { cookie: cara, 'content-type': 'application/json' },
      body: JSON.stringify({ creator: 'cara', message: 'Written by Cara', fanId: fan.fanId, fanName: 'X' }),
    });
    expect(ask.status).toBe(403);
    expect((await fan.messages('cara')).map((m) => m.message)).toEqual(['For Cara only']);
  });

  it('refuses a browser whose fan cookie is bound to another fan of the creator (403), and writes nothing', async () => {
    const fan = new FanBrowser(t);
    await fan.ask('cara', 'Mine');
    const other = new FanBrowser(t);
    await other.ask('cara', 'I am someone else');
    // The other fan's browser, cookie and all, now claims this fan's id.
    const thief = new FanBrowser(t, fan.fanId);
    thief.cookie = other.cookie;
    const before = await countMessages(t);
    const ask = await thief.ask('cara', 'Pretending');
    expect(ask.status).toBe(403);
    expect(await json(ask)).toEqual({
      error: 'forbidden',
      message: expect.stringContaining('another browser'),
    });
    expect(setCookies(ask).fp_fan).toBeUndefined();
    expect((await thief.history('cara')).status).toBe(403);
    expect((await thief.history()).status).toBe(403);
    expect(await countMessages(t)).toBe(before);
    // With another creator, where that browser is no one else, it may.
    expect((await thief.ask('dino', 'Hello Dino')).status).toBe(200);
  });

  it('every way a stranger can act as a fan is refused: hundreds of attempts, no leak, nothing written', async () => {
    const victim = new FanBrowser(t);
    const secret = `secret-${randomBytes(6).toString('hex')}`;
    const asked = await sent(
      await victim.ask('cara', `About my ${secret}`, {
        fanName: 'Vic',
        attachment: { filename: `${secret}.png`, contentBase64: PNG_1PX.toString('base64') },
      }),
    );
    const fileId = asked.message.fileAttachment!.id;
    const dino = await t.signIn(identity('dino'));
    const someoneElse = new FanBrowser(t);
    await someoneElse.ask('cara', 'Hello');
    // Who tries: no cookie, a forged cookie, another fan's browser, another creator, both at once.
    const strangers = ['', 'fp_fan=forged.value', someoneElse.cookie, dino, `${dino}; ${someoneElse.cookie}`];
    const attempts: (() => Promise<Response>)[] = [];
    for (const cookie of strangers) {
      const headers = (json?: boolean) => ({
        ...(cookie ? { cookie } : {}),
        ...(json ? { 'content-type': 'application/json' } : {}),
      });
      attempts.push(
        () => fetch(`${t.url}/api/chatlog/fan/${victim.fanId}?creator=cara`, { headers: headers() }),
        () => fetch(`${t.url}/api/chatlog/fan/${victim.fanId}`, { headers: headers() }),
        () =>
          fetch(`${t.url}/api/ask`, {
            method: 'POST',
            headers: headers(true),
            body: JSON.stringify({ creator: 'cara', fanId: victim.fanId, message: 'As the victim' }),
          }),
        () =>
          fetch(`${t.url}/api/ask`, {
            method: 'POST',
            headers: headers(true),
            body: JSON.stringify({
              creator: 'cara',
              fanId: victim.fanId,
              message: 'Rename',
              fanName: 'Mallory',
            }),
          }),
        () => fetch(`${t.url}/api/files/${fileId}/download`, { headers: headers() }),
        () =>
          fetch(`${t.url}/api/fan-transfers`, {
            method: 'POST',
            headers: headers(true),
            body: JSON.stringify({ creator: 'cara', fanId: victim.fanId }),
          }),
      );
    }
    const before = await countMessages(t);
    const statuses = new Map<number, number>();
    let leaks = 0;
    const ROUNDS = 10;
    for (let round = 0; round < ROUNDS; round++) {
      for (const attempt of attempts) {
        const res = await attempt();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const body = Buffer.from(await res.arrayBuffer());
        if (res.status < 400 || body.includes(secret) || body.includes(PNG_1PX)) leaks++;
      }
    }
    const total = ROUNDS * attempts.length;
    console.info(
      `fan trust: ${total} authorization attempts as another browser's fan, ${leaks} leaks, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    expect(leaks).toBe(0);
    // 403 everywhere; past 20 links per address in 10 minutes, POST /api/fan-transfers answers 429 first.
    expect([...statuses.keys()].sort()).toEqual([403, 429]);
    expect(statuses.get(429)).toBe(ROUNDS * strangers.length - 20);
    expect(await countMessages(t)).toBe(before);
    const row = await t.db.db
      .selectFrom('fans')
      .select('name')
      .where('fan_key', '=', victim.fanId)
      .executeTakeFirst();
    expect(row?.name).toBe('Vic');
    // The victim is untouched.
    expect((await victim.messages('cara')).map((m) => m.message)).toEqual([`About my ${secret}`]);
  });

  it('keeps one browser with two creators as two conversations', async () => {
    const fan = new FanBrowser(t);
    await fan.ask('cara', 'To Cara');
    const res = await fan.ask('dino', 'To Dino');
    expect(res.status).toBe(200);
    expect((await fan.messages('cara')).map((m) => m.message)).toEqual(['To Cara']);
    expect((await fan.messages('dino')).map((m) => m.message)).toEqual(['To Dino']);
  });

  it('answers 404 for unknown or not yet onboarded creators', async () => {
    await t.signIn(identity('newbie'));
    const fan = new FanBrowser(t);
    for (const creator of ['nobody', 'newbie']) {
      const ask = await fan.ask(creator, 'Hello?');
      expect(ask.status).toBe(404);
      expect((await json(ask)).error).toBe('not_found');
      expect((await fan.history(creator)).status).toBe(404);
      expect((await fetch(`${t.url}/api/public/creators/${creator}`)).status).toBe(404);
    }
  });

  it("serves the creator's public card to anyone", async () => {
    const res = await fetch(`${t.url}/api/public/creators/cara`);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({
      username: 'cara',
      name: 'Cara Tester',
      isOnline: true,
      statusText: 'Online - Creator responding',
    });
    expect(body.profileImageUrl).toMatch(/^\/objects\/uploads\//);
    expect(Object.keys(body).sort()).toEqual(
      [
        'aiAvailable',
        'chatbotName',
        'description',
        'initialMessages',
        'isOnline',
        'name',
        'notice',
        'profileImageUrl',
        'statusText',
        'username',
      ].sort(),
    );
    // The chatbot's opening lines, which the fan app shows as its first bubbles.
    expect(Array.isArray(body.initialMessages)).toBe(true);
  });

  const fanId = 'mobile_fan_valid';
  const bad: [string, unknown, string, string][] = [
    ['no fanId', { creator: 'cara', message: 'Hi' }, 'Cannot find fan ID. Please try again.', 'fanId'],
    [
      'a null fanId',
      { creator: 'cara', message: 'Hi', fanId: null },
      'Cannot find fan ID. Please try again.',
      'fanId',
    ],
    [
      'an empty fanId',
      { creator: 'cara', message: 'Hi', fanId: '' },
      'Cannot find fan ID. Please try again.',
      'fanId',
    ],
    [
      'a blank fanId',
      { creator: 'cara', message: 'Hi', fanId: '  ' },
      'Cannot find fan ID. Please try again.',
      'fanId',
    ],
    [
      'a fanId with odd characters',
      { creator: 'cara', message: 'Hi', fanId: 'a b<script>' },
      'fanId holds letters, digits, and _ . : -',
      'fanId',
    ],
    ['no creator', { message: 'Hi', fanId }, 'creator is required', 'creator'],
    ['no message', { creator: 'cara', fanId }, 'Message must not be empty', 'message'],
    ['an empty message', { creator: 'cara', message: '   ', fanId }, 'Message must not be empty', 'message'],
    [
      'a message over 4000 characters',
      { creator: 'cara', message: 'x'.repeat(4001), fanId },
      '4000',
      'message',
    ],
    [
      'a fan name over 100 characters',
      { creator: 'cara', message: 'Hi', fanId, fanName: 'n'.repeat(101) },
      '100',
      'fanName',
    ],
    ['a message that is not text', { creator: 'cara', message: 42, fanId }, 'expected string', 'message'],
    [
      'an attachment that is not base64',
      { creator: 'cara', message: 'Hi', fanId, attachment: { filename: 'a.png', contentBase64: '!!!' } },
      'base64',
      'attachment.contentBase64',
    ],
  ];
  it.each(bad)('refuses %s with a readable 400 and writes nothing', async (_label, payload, text, field) => {
    const before = await countMessages(t);
    const res = await fetch(`${t.url}/api/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    expect(res.status).toBe(400);
    const body = await json(res);
    // The schema's words verbatim; the field apart.
    expect(body).toEqual({ error: 'validation_error', message: expect.stringContaining(text), field });
    expect(body.message).not.toMatch(new RegExp(`^${field}: `));
    expect(await countMessages(t)).toBe(before);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('answers an empty JSON body with the first missing field, not a parse error', async () => {
    const res = await fetch(`${t.url}/api/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '',
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({
      error: 'validation_error',
      message: 'creator is required',
      field: 'creator',
    });
  });

  it('refuses malformed JSON and odd fan ids in the path', async () => {
    const res = await fetch(`${t.url}/api/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"creator": ',
    });
    expect(res.status).toBe(400);
    expect((await json(res)).error).toBe('invalid_json');
    const odd = await fetch(`${t.url}/api/chatlog/fan/${encodeURIComponent('a b')}`);
    expect(odd.status).toBe(400);
  });
});

describe('rate limits on /api/ask', () => {
  let t: TestApp;
  const redisUrl = process.env.TEST_REDIS_URL;
  const address = () => `10.${[1, 2, 3].map(() => randomBytes(1)[0]! % 250).join('.')}`;
  beforeAll(async () => {
    t = await startTestApp({
      env: {
        ASK_RATE_LIMIT_PER_FAN: '3',
        ASK_RATE_LIMIT_PER_IP: '5',
        ASK_RATE_LIMIT_WINDOW_SECONDS: '60',
        // The test plays the proxy: its X-Forwarded-For is each client's address.
        TRUST_PROXY: '127.0.0.1',
        // Counters in Redis when it is there, as with several api instances.
        ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
      },
    });
    await onboard(t, 'rita');
  });
  afterAll(async () => {
    await t.close();
  });

  it('limits one fan, answering 429 with Retry-After and when to retry; other fans go on', async () => {
    const ip = { 'x-forwarded-for': address() };
    const fan = new FanBrowser(t, undefined, ip);
    for (let i = 0; i < 3; i++) expect((await fan.ask('rita', `Question ${i}`)).status).toBe(200);
    const limited = await fan.ask('rita', 'One more');
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const body = await json(limited);
    expect(body.error).toBe('rate_limited');
    expect(body.message).toMatch(/Please wait \d+ (seconds?|minute)/);
    // (Rita is Offline: the AI may have answered some already; only the fan's count here.)
    expect((await fan.messages('rita')).filter((m) => m.from === 'fan').length).toBe(3);

    const other = new FanBrowser(t, undefined, ip);
    expect((await other.ask('rita', 'Hello')).status).toBe(200);
  });

  it('limits one address across fan ids, so a bot cannot rotate ids to burn credits', async () => {
    const ip = { 'x-forwarded-for': address() };
    for (let i = 0; i < 5; i++) {
      expect((await new FanBrowser(t, undefined, ip).ask('rita', `Bot ${i}`)).status).toBe(200);
    }
    const limited = await new FanBrowser(t, undefined, ip).ask('rita', 'Bot 6');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
    expect(
      (await new FanBrowser(t, undefined, { 'x-forwarded-for': address() }).ask('rita', 'Human')).status,
    ).toBe(200);
  });
});

describe('Idempotency-Key on /api/ask', () => {
  let t: TestApp;
  let openai: FakeOpenAI;
  let vera: string;
  beforeAll(async () => {
    openai = await startFakeOpenAI();
    t = await startTestApp({
      env: {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: openai.baseUrl,
        ASK_RATE_LIMIT_PER_FAN: '1000',
        ASK_RATE_LIMIT_PER_IP: '1000',
      },
    });
    vera = await onboard(t, 'vera');
    await onboard(t, 'walt');
    // Online: the AI stays out unless a test sends vera Offline.
    await call(t, 'POST', '/api/toggle-status', vera, { creator: 'vera' });
    openai.answerWith(() => 'Stretch first.');
  });
  afterAll(async () => {
    await t.close();
    await openai.close();
  });

  const key = () => `outbox-${randomBytes(8).toString('hex')}`;
  const withKey = (k: string) => ({ 'idempotency-key': k });

  async function storedWithText(text: string) {
    return t.db.db.selectFrom('messages').selectAll().where('body', '=', text).execute();
  }

  it('stores a question sent twice with the same key once, and answers the resend like the first send', async () => {
    const fan = new FanBrowser(t);
    const k = key();
    const first = await fan.ask('vera', 'Sent once, answer lost', {}, withKey(k));
    expect(first.status).toBe(200);
    const firstBody = await json(first);
    const again = await fan.ask('vera', 'Sent once, answer lost', {}, withKey(k));
    expect(again.status).toBe(200);
    expect(again.headers.get('cache-control')).toBe('no-store');
    expect(setCookies(again).fp_fan).toBeUndefined();
    expect(await json(again)).toEqual(firstBody);
    expect(firstBody).toMatchObject({ success: true, aiWillAnswer: false, message: { status: 'pending' } });

    const rows = await storedWithText('Sent once, answer lost');
    expect(rows).toHaveLength(1);
    expect(String(rows[0]!.id)).toBe((firstBody.message as unknown as { id: string }).id);
    expect(rows[0]!.client_key).toBe(k);
    expect((await fan.messages('vera')).map((m) => m.message)).toEqual(['Sent once, answer lost']);
  });

  it("gives the fan's own chat each question's key as clientId (the app's local id), never the creator's reads", async () => {
    const fan = new FanBrowser(t);
    const k = key();
    expect((await fan.ask('vera', 'Keyed question', {}, withKey(k))).status).toBe(200);
    expect((await fan.ask('vera', 'Unkeyed question')).status).toBe(200);
    const seen = (await fan.messages('vera')) as unknown as { message: string; clientId?: string }[];
    expect(seen.find((m) => m.message === 'Keyed question')?.clientId).toBe(k);
    expect(seen.find((m) => m.message === 'Unkeyed question')).not.toHaveProperty('clientId');
    const creatorRead = await call(t, 'GET', '/api/chatlog?creator=vera', vera);
    expect(await creatorRead.text()).not.toContain(k);
  });

  it('stores two questions sent with different keys, and questions without a key every time', async () => {
    const fan = new FanBrowser(t);
    const a = await sent(await fan.ask('vera', 'Same words', {}, withKey(key())));
    const b = await sent(await fan.ask('vera', 'Same words', {}, withKey(key())));
    expect(a.message.id).not.toBe(b.message.id);
    expect((await fan.ask('vera', 'No key')).status).toBe(200);
    expect((await fan.ask('vera', 'No key')).status).toBe(200);
    expect((await fan.messages('vera')).map((m) => m.message)).toEqual([
      'Same words',
      'Same words',
      'No key',
      'No key',
    ]);
  });

  it('stores one question when the same key arrives many times at once; every request gets it', async () => {
    const fan = new FanBrowser(t);
    // First contact binds the fan cookie; the resends then race.
    expect((await fan.ask('vera', 'Hello first')).status).toBe(200);
    const k = key();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => fan.ask('vera', 'Raced resend', {}, withKey(k))),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(8).fill(200));
    const ids = new Set(await Promise.all(answers.map(async (res) => (await sent(res)).message.id)));
    expect(ids.size).toBe(1);
    expect(await storedWithText('Raced resend')).toHaveLength(1);
  });

  it('keys belong to one fan of one creator: another fan, or the same browser with another creator, stores its own', async () => {
    const k = key();
    const one = new FanBrowser(t);
    const two = new FanBrowser(t);
    const a = await sent(await one.ask('vera', 'Shared key', {}, withKey(k)));
    const b = await sent(await two.ask('vera', 'Shared key', {}, withKey(k)));
    const c = await sent(await one.ask('walt', 'Shared key', {}, withKey(k)));
    expect(new Set([a.message.id, b.message.id, c.message.id]).size).toBe(3);
    expect(await storedWithText('Shared key')).toHaveLength(3);
    // The key does not let a browser known as another fan read or claim the fan's message.
    const thief = new FanBrowser(t, one.fanId);
    thief.cookie = two.cookie;
    expect((await thief.ask('vera', 'Shared key', {}, withKey(k))).status).toBe(403);
  });

  it('refuses a key reused for a different question with 422, storing nothing', async () => {
    const fan = new FanBrowser(t);
    const k = key();
    await fan.ask('vera', 'The original', {}, withKey(k));
    const other = await fan.ask('vera', 'Something else', {}, withKey(k));
    expect(other.status).toBe(422);
    expect(await json(other)).toEqual({ error: 'idempotency_key_reused', message: expect.any(String) });
    expect((await fan.messages('vera')).map((m) => m.message)).toEqual(['The original']);
  });

  it('stores a resend with its attachment once', async () => {
    const fan = new FanBrowser(t);
    const k = key();
    const attachment = { filename: 'photo.png', contentBase64: PNG_1PX.toString('base64') };
    const first = await sent(await fan.ask('vera', 'With a photo', { attachment }, withKey(k)));
    const again = await sent(await fan.ask('vera', 'With a photo', { attachment }, withKey(k)));
    expect(again).toEqual(first);
    expect(first.message.fileAttachment).toMatchObject({ originalFilename: 'photo.png' });
    const files = await t.db.db
      .selectFrom('file_attachments')
      .select(['storage_key', 'creator_id'])
      .where('message_id', '=', first.message.id)
      .execute();
    expect(files).toHaveLength(1);
    // The resend's copy of the file is not left behind in storage.
    const listed = await t.storage.client.send(
      new ListObjectsV2Command({ Bucket: t.storage.bucket, Prefix: `attachments/${files[0]!.creator_id}/` }),
    );
    expect((listed.Contents ?? []).map((object) => object.Key)).toEqual([files[0]!.storage_key]);
  });

  it('remembers a key for 24 hours; after that the same key stores a new question', async () => {
    const fan = new FanBrowser(t);
    const k = key();
    const old = await sent(await fan.ask('vera', 'Asked yesterday', {}, withKey(k)));
    await sql`update messages set created_at = now() - interval '25 hours' where id = ${old.message.id}`.execute(
      t.db.db,
    );
    const fresh = await sent(await fan.ask('vera', 'Asked yesterday', {}, withKey(k)));
    expect(fresh.message.id).not.toBe(old.message.id);
    const rows = await storedWithText('Asked yesterday');
    expect(rows.map((r) => [String(r.id), r.client_key]).sort()).toEqual(
      [
        [old.message.id, null],
        [fresh.message.id, k],
      ].sort(),
    );
    // Within the window again, the new question is the one a resend gets.
    expect((await sent(await fan.ask('vera', 'Asked yesterday', {}, withKey(k)))).message.id).toBe(
      fresh.message.id,
    );
  });

  it('an Offline creator: a resend queues no second AI answer and charges nothing more', async () => {
    // A creator of its own, Offline from onboarding with nothing else pending.
    const yara = await onboard(t, 'yara');
    const text = 'How do I warm up?';
    const modelCalls = () => openai.requests.filter((r) => r.messages.at(-1)?.content === text).length;
    const creditsUsed = async () =>
      (await json(await call(t, 'GET', '/api/creators/username/yara/usage', yara))).creditsUsed;
    const fan = new FanBrowser(t);
    const k = key();
    const first = await sent(await fan.ask('yara', text, {}, withKey(k)));
    expect(first.aiWillAnswer).toBe(true);
    await eventually(async () => (await fan.messages('yara')).some((m) => m.from === 'Creatorai'));
    expect(modelCalls()).toBe(1);
    expect(await creditsUsed()).toBe(1);

    const again = await sent(await fan.ask('yara', text, {}, withKey(k)));
    expect(again.message.id).toBe(first.message.id);
    expect(again.message.status).toBe('answered');
    expect(again.aiWillAnswer).toBe(true);
    await t.background.idle();
    expect(modelCalls()).toBe(1);
    expect((await fan.messages('yara')).map((m) => m.from)).toEqual(['fan', 'Creatorai']);
    expect(await creditsUsed()).toBe(1);
  });

  const badKeys: [string, string][] = [
    ['an empty key', ''],
    ['a key over 100 characters', 'k'.repeat(101)],
    ['a key with spaces', 'my key'],
    ['a key with a slash', 'outbox/1'],
    ['two keys in one header', 'a, b'],
  ];
  it.each(badKeys)('refuses %s with a readable 400 and stores nothing', async (_label, bad) => {
    const fan = new FanBrowser(t);
    const text = `Bad key ${randomBytes(4).toString('hex')}`;
    const res = await fan.ask('vera', text, {}, withKey(bad));
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body).toEqual({
      error: 'validation_error',
      message: expect.stringContaining('Idempotency-Key'),
      field: 'idempotency-key',
    });
    expect(await storedWithText(text)).toHaveLength(0);
  });
});

/** A browser behind a given address (the api sees it as request.ip), keeping its fan cookie. */
class BrowserAt {
  cookie = '';
  constructor(
    readonly t: TestApp,
    readonly address: string,
    readonly fanId = `mobile_fan_${randomBytes(16).toString('hex')}`,
  ) {}

  private async send(method: 'GET' | 'POST', url: string, payload?: unknown) {
    const res = await this.t.app.inject({
      method,
      url,
      remoteAddress: this.address,
      headers: {
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
    const set = res.cookies.find((c) => c.name === 'fp_fan');
    if (set) this.cookie = `fp_fan=${set.value}`;
    return res;
  }

  ask(creator: string, message: string) {
    return this.send('POST', '/api/ask', { creator, message, fanId: this.fanId });
  }

  read(fanId = this.fanId, creator?: string) {
    return this.send('GET', `/api/chatlog/fan/${fanId}${creator ? `?creator=${creator}` : ''}`);
  }
}

describe('brakes on guessing fan ids and on new fans per address', () => {
  let t: TestApp;
  const READS_PER_MINUTE = 40;
  const NEW_FANS = 5;
  beforeAll(async () => {
    t = await startTestApp({
      env: {
        FAN_READ_RATE_LIMIT_PER_IP: String(READS_PER_MINUTE),
        NEW_FANS_PER_IP: String(NEW_FANS),
        NEW_FANS_WINDOW_SECONDS: '600',
        ASK_RATE_LIMIT_PER_IP: '1000',
      },
    });
    const gina = await onboard(t, 'gina');
    await call(t, 'POST', '/api/toggle-status', gina, { creator: 'gina' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('a client guessing fan ids gets no data, and 429 once past the reads an address may make', async () => {
    const victim = new BrowserAt(t, '198.51.100.7');
    expect((await victim.ask('gina', 'My private worry')).statusCode).toBe(200);
    const guesser = new BrowserAt(t, '203.0.113.9');
    // Guesses in the old id form, random ids, and the victim's real id (as if it leaked).
    const guesses = Array.from({ length: 150 }, (_, i) =>
      i === 3
        ? victim.fanId
        : i % 2
          ? `mobile_fan_0a1b2c3d4e5f6g_${1_760_000_000_000 + i}`
          : `mobile_fan_${randomBytes(16).toString('hex')}`,
    );
    const statuses: number[] = [];
    for (const [i, guess] of guesses.entries()) {
      const res = await guesser.read(guess, i % 3 ? 'gina' : undefined);
      statuses.push(res.statusCode);
      expect(res.body).not.toContain('private worry');
      if (res.statusCode === 200) expect(res.json().messages).toEqual([]);
      if (res.statusCode === 429) {
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        expect(res.json()).toEqual({
          error: 'rate_limited',
          message: expect.stringContaining('Please wait'),
        });
      }
    }
    console.info(
      `guessing client: ${guesses.length} guesses, ${statuses.filter((s) => s !== 429).length} answered (none with data), ${statuses.filter((s) => s === 429).length} refused with 429`,
    );
    expect(statuses.filter((s) => s !== 429)).toHaveLength(READS_PER_MINUTE);
    expect(statuses.slice(READS_PER_MINUTE).every((s) => s === 429)).toBe(true);
    expect(statuses[3]).toBe(403);
    // Another address (the victim's own phone) reads on.
    const own = await victim.read(victim.fanId, 'gina');
    expect(own.statusCode).toBe(200);
    expect(own.json().messages.map((m: { message: string }) => m.message)).toEqual(['My private worry']);
  });

  it('caps new fans per address, never the fans a creator may get; known fans go on asking', async () => {
    const office = '192.0.2.10';
    const first = new BrowserAt(t, office);
    for (let i = 0; i < NEW_FANS; i++) {
      const fan = i === 0 ? first : new BrowserAt(t, office);
      expect((await fan.ask('gina', `Hello ${i}`)).statusCode).toBe(200);
    }
    const before = await countMessages(t);
    const one = await new BrowserAt(t, office).ask('gina', 'One fan too many');
    expect(one.statusCode).toBe(429);
    expect(Number(one.headers['retry-after'])).toBeGreaterThan(0);
    expect(one.json()).toEqual({ error: 'rate_limited', message: expect.stringContaining('new chats') });
    expect(await countMessages(t)).toBe(before);
    // A fan already started keeps talking from there; new fans elsewhere still reach the creator.
    expect((await first.ask('gina', 'Me again')).statusCode).toBe(200);
    for (let i = 0; i < NEW_FANS + 2; i++) {
      expect((await new BrowserAt(t, `192.0.2.${100 + i}`).ask('gina', 'A new fan')).statusCode).toBe(200);
    }
  });
});

describe('moving a chat to another browser with a one-time link', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    const kim = await onboard(t, 'kim');
    const leo = await onboard(t, 'leo');
    await call(t, 'POST', '/api/toggle-status', kim, { creator: 'kim' });
    await call(t, 'POST', '/api/toggle-status', leo, { creator: 'leo' });
  });
  afterAll(async () => {
    await t.close();
  });

  const makeLink = (browser: FanBrowser, creator = 'kim', fanId = browser.fanId) =>
    fetch(`${t.url}/api/fan-transfers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(browser.cookie ? { cookie: browser.cookie } : {}) },
      body: JSON.stringify({ creator, fanId }),
    });
  const tokenOf = (url: string) => new URL(url).hash.replace(/^#transfer=/, '');
  async function redeem(browser: FanBrowser, token: string) {
    const res = await fetch(`${t.url}/api/fan-transfers/redeem`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(browser.cookie ? { cookie: browser.cookie } : {}) },
      body: JSON.stringify({ token }),
    });
    const set = setCookies(res).fp_fan;
    if (set) browser.cookie = `fp_fan=${set}`;
    return res;
  }

  it('moves every conversation of the fan id to the new browser, once; the old browser loses them', async () => {
    const oldPhone = new FanBrowser(t);
    await oldPhone.ask('kim', 'Week 1 plan?');
    await oldPhone.ask('leo', 'Hi Leo');
    const made = await makeLink(oldPhone);
    expect(made.status).toBe(200);
    expect(made.headers.get('cache-control')).toBe('no-store');
    const link = (await json(made)) as unknown as { url: string; expiresAt: string };
    expect(link.url).toMatch(new RegExp(`^${t.url}/pwa/kim#transfer=[A-Za-z0-9_-]{43}$`));
    const minutes = (Date.parse(link.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9);
    expect(minutes).toBeLessThanOrEqual(10);
    const token = tokenOf(link.url);
    // Only the token's hash is stored.
    const stored = await t.db.db.selectFrom('fan_transfers').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(token);

    // The new phone has never been here: no cookie, another fan id in its storage.
    const newPhone = new FanBrowser(t);
    const res = await redeem(newPhone, token);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ fanId: oldPhone.fanId, creator: 'kim' });
    expect(newPhone.cookie).toMatch(/^fp_fan=/);
    const moved = new FanBrowser(t, oldPhone.fanId);
    moved.cookie = newPhone.cookie;
    expect((await moved.messages('kim')).map((m) => m.message)).toEqual(['Week 1 plan?']);
    expect((await moved.messages('leo')).map((m) => m.message)).toEqual(['Hi Leo']);
    expect((await moved.ask('kim', 'From my new phone')).status).toBe(200);

    for (const creator of ['kim', 'leo']) {
      expect((await oldPhone.history(creator)).status).toBe(403);
      expect((await oldPhone.ask(creator, 'Still here?')).status).toBe(403);
    }
    expect((await oldPhone.history()).status).toBe(403);
    expect((await makeLink(oldPhone)).status).toBe(403);

    // Single use: the same link again, from anywhere, is refused.
    for (const browser of [new FanBrowser(t), oldPhone, moved]) {
      const again = await redeem(browser, token);
      expect(again.status).toBe(410);
      expect(await json(again)).toEqual({
        error: 'transfer_used',
        message: expect.stringContaining('already used'),
      });
    }
    expect((await moved.messages('kim')).map((m) => m.message)).toEqual([
      'Week 1 plan?',
      'From my new phone',
    ]);
  });

  it('refuses an expired link, an unknown one and a malformed one; the chat stays where it was', async () => {
    const phone = new FanBrowser(t);
    await phone.ask('kim', 'Stay with me');
    const token = tokenOf(((await json(await makeLink(phone))) as unknown as { url: string }).url);
    await sql`update fan_transfers set expires_at = now() - interval '1 second'`.execute(t.db.db);
    const other = new FanBrowser(t);
    const expired = await redeem(other, token);
    expect(expired.status).toBe(410);
    expect(await json(expired)).toEqual({
      error: 'transfer_expired',
      message: expect.stringContaining('expired'),
    });
    const unknown = await redeem(other, randomBytes(32).toString('base64url'));
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toEqual({
      error: 'not_found',
      message: expect.stringContaining('not valid'),
    });
    for (const bad of ['', 'not a token!', 'x'.repeat(101)]) {
      const res = await redeem(other, bad);
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ error: 'validation_error', message: expect.any(String) });
    }
    expect((await phone.messages('kim')).map((m) => m.message)).toEqual(['Stay with me']);
    expect((await other.history('kim')).status).toBe(200);
    expect((await new FanBrowser(t, phone.fanId, {}).history('kim')).status).toBe(403);
  });

  it('only the browser holding the chat may make a link; a newer link replaces an unused older one', async () => {
    const phone = new FanBrowser(t);
    await phone.ask('kim', 'Mine');
    const stranger = new FanBrowser(t, phone.fanId);
    const refused = await makeLink(stranger);
    expect(refused.status).toBe(403);
    expect((await json(refused)).error).toBe('forbidden');
    const nobody = await makeLink(new FanBrowser(t));
    expect(nobody.status).toBe(404);
    expect((await makeLink(phone, 'nobody-here')).status).toBe(404);
    expect((await makeLink(phone, 'kim', 'bad id!')).status).toBe(400);

    const older = tokenOf(((await json(await makeLink(phone))) as unknown as { url: string }).url);
    const newer = tokenOf(((await json(await makeLink(phone))) as unknown as { url: string }).url);
    expect((await redeem(new FanBrowser(t), older)).status).toBe(404);
    const taker = new FanBrowser(t);
    expect((await redeem(taker, newer)).status).toBe(200);
  });
});
