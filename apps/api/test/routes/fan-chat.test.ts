import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { type FakeOpenAI, startFakeOpenAI } from '@fanpilot/knowledge/testing';
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
    expect(res.headers.get('cache-control')).toBe('no-store');
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

  it('takes a request with no fan cookie as the fan its id names (no login), and sets the cookie', async () => {
    const fan = new FanBrowser(t);
    await fan.ask('cara', 'Mine');
    // The same fan id from a page without the cookie (cleared cookies, another device, a script).
    const plain = await fetch(`${t.url}/api/chatlog/fan/${fan.fanId}?creator=cara`);
    expect(plain.status).toBe(200);
    expect(((await json(plain)).messages as { message: string }[]).map((m) => m.message)).toEqual(['Mine']);
    expect(setCookies(plain).fp_fan).toBeTruthy();
    const elsewhere = new FanBrowser(t, fan.fanId);
    const ask = await elsewhere.ask('cara', 'From my other phone');
    expect(ask.status).toBe(200);
    expect(setCookies(ask).fp_fan).toBeTruthy();
    // That browser keeps the cookie it was given, and goes on being that fan.
    expect((await elsewhere.history('cara')).status).toBe(200);
    expect((await elsewhere.messages()).map((m) => m.message)).toEqual(['Mine', 'From my other phone']);
    expect((await elsewhere.ask('cara', 'Still me')).status).toBe(200);
    // A forged cookie is no cookie at all.
    const forged = new FanBrowser(t, fan.fanId);
    forged.cookie = 'fp_fan=forged.value';
    expect((await forged.history('cara')).status).toBe(200);
    // The first browser is untouched.
    expect((await fan.messages('cara')).map((m) => m.message)).toEqual([
      'Mine',
      'From my other phone',
      'Still me',
    ]);
    expect((await fan.ask('cara', 'Back home')).status).toBe(200);
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

  it('lets the owning creator read a fan chat; without a fan cookie anyone with the fan id may', async () => {
    const fan = new FanBrowser(t);
    await fan.ask('cara', 'For Cara only');
    const own = await fetch(`${t.url}/api/chatlog/fan/${fan.fanId}?creator=cara`, {
      headers: { cookie: cara },
    });
    expect(own.status).toBe(200);
    expect(((await json(own)).messages as unknown[]).length).toBe(1);
    // The creator's own read sets no fan cookie.
    expect(setCookies(own).fp_fan).toBeUndefined();
    const anonymous = await fetch(`${t.url}/api/chatlog/fan/${fan.fanId}?creator=cara`);
    expect(anonymous.status).toBe(200);
    expect(((await json(anonymous)).messages as unknown[]).length).toBe(1);
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
      ['isOnline', 'name', 'notice', 'profileImageUrl', 'statusText', 'username'].sort(),
    );
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
    await new Promise((resolve) => setTimeout(resolve, 300));
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
