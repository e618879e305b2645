import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identity, json, PNG_1PX, startTestApp, type TestApp, uploadAs } from '../helpers.ts';

const post = (t: TestApp, path: string, cookie: string, body: unknown) =>
  fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('onboarding', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('hands a signed-in creator a short-lived pre-signed PUT under uploads/pending/', async () => {
    const cookie = await t.signIn(identity('uma'));
    const res = await fetch(`${t.url}/api/objects/upload`, { method: 'POST', headers: { cookie } });
    expect(res.status).toBe(200);
    const { uploadURL } = (await res.json()) as { uploadURL: string };
    const url = new URL(uploadURL);
    expect(url.pathname).toMatch(/\/uploads\/pending\/[0-9a-f-]+\/[0-9a-f-]+$/);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    const put = await fetch(uploadURL, { method: 'PUT', body: PNG_1PX });
    expect(put.ok).toBe(true);
  });

  it("takes the upload call with a JSON content type and an empty body, as the dashboard's upload widget sends it", async () => {
    const cookie = await t.signIn(identity('uma'));
    for (const body of ['', undefined]) {
      const res = await fetch(`${t.url}/api/objects/upload`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body }),
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { uploadURL: string }).uploadURL).toMatch(/^http/);
    }
  });

  it('refuses upload URLs to the signed-out', async () => {
    const res = await fetch(`${t.url}/api/objects/upload`, { method: 'POST' });
    expect(res.status).toBe(401);
  });

  it('completes onboarding: image, chatbot with the default settings, free credits; a second signup changes nothing', async () => {
    const cookie = await t.signIn(identity('olivia'));
    const image = await uploadAs(t, cookie, PNG_1PX);
    const res = await post(t, '/api/creator-signup', cookie, {
      chatbotName: '  Olivia Bot  ',
      description: 'Strength coach',
      profileImageUrl: image,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { creator: Record<string, unknown>; chatbot: Record<string, unknown> };
    expect(body.creator).toMatchObject({
      username: 'olivia',
      name: 'Olivia Tester',
      onboardingComplete: true,
    });
    expect(body.creator.profileImageUrl).toMatch(/^\/objects\/uploads\//);
    expect(body.chatbot).toMatchObject({
      name: 'Olivia Bot',
      model: 'gpt-4o-mini',
      temp: 0.7,
      initialMessages: [],
      knowledge: [],
    });
    expect(body.chatbot.instructions).toMatch(/friendly/i);
    expect(body.chatbot.chatbotId).toBe(body.chatbot.id);

    // The profile image is served on our origin, typed by its content.
    const img = await fetch(`${t.url}${body.creator.profileImageUrl}`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');

    const again = await post(t, '/api/creator-signup', cookie, {
      chatbotName: 'Another',
      profileImageUrl: image,
    });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { chatbot: { name: string } }).chatbot.name).toBe('Olivia Bot');
    const creators = await t.db.db
      .selectFrom('creators')
      .select('id')
      .where('google_sub', '=', 'sub-olivia')
      .execute();
    expect(creators).toHaveLength(1);
    const bots = await t.db.db
      .selectFrom('chatbots')
      .select('id')
      .where('creator_id', '=', creators[0]!.id)
      .execute();
    expect(bots).toHaveLength(1);
    const credits = await t.db.db
      .selectFrom('credit_ledger')
      .select(['delta', 'reason'])
      .where('creator_id', '=', creators[0]!.id)
      .execute();
    expect(credits).toEqual([{ delta: 1000, reason: 'free_grant' }]);

    // Signing in again now goes to the dashboard.
    const start = await fetch(`${t.url}/auth/logout`, { redirect: 'manual', headers: { cookie } });
    expect(start.status).toBe(302);
  });

  const bad: [string, (image: string) => unknown, number, string][] = [
    [
      'no chatbot name',
      (image) => ({ chatbotName: '   ', profileImageUrl: image }),
      400,
      'Please enter a chatbot name',
    ],
    ['no image', () => ({ chatbotName: 'Bot' }), 400, 'A profile image is required'],
    [
      'a URL that is not ours',
      () => ({ chatbotName: 'Bot', profileImageUrl: 'https://evil.example/uploads/x.png' }),
      400,
      'Invalid upload URL format',
    ],
    [
      'not a URL',
      () => ({ chatbotName: 'Bot', profileImageUrl: 'not a url' }),
      400,
      'Invalid upload URL format',
    ],
    [
      'a path without an uploads segment',
      (image) => ({ chatbotName: 'Bot', profileImageUrl: image.replace('/uploads/', '/private/') }),
      400,
      'Invalid upload URL format',
    ],
    [
      'an upload that never happened',
      (image) => ({ chatbotName: 'Bot', profileImageUrl: `${image}-missing` }),
      400,
      'not found',
    ],
    ['an oversized name', (image) => ({ chatbotName: 'x'.repeat(101), profileImageUrl: image }), 400, '100'],
  ];
  it.each(bad)('refuses %s with a readable 400 and writes nothing', async (_label, make, status, text) => {
    const cookie = await t.signIn(identity('victor'));
    const image = await uploadAs(t, cookie, PNG_1PX);
    const res = await post(t, '/api/creator-signup', cookie, make(image));
    expect(res.status).toBe(status);
    const body = await json(res);
    expect(body.error).toBeTruthy();
    expect(body.message).toContain(text);
    const me = await json(await fetch(`${t.url}/api/auth/user`, { headers: { cookie } }));
    expect(me.onboardingComplete).toBe(false);
  });

  it("answers a missing, null or blank chatbot name with exactly 'Please enter a chatbot name'", async () => {
    const cookie = await t.signIn(identity('valerie'));
    const image = await uploadAs(t, cookie, PNG_1PX);
    for (const chatbotName of [undefined, null, '', '   ']) {
      const res = await post(t, '/api/creator-signup', cookie, { chatbotName, profileImageUrl: image });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: 'validation_error',
        message: 'Please enter a chatbot name',
        field: 'chatbotName',
      });
    }
    const empty = await post(t, '/api/creator-signup', cookie, '');
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({
      error: 'validation_error',
      message: 'Please enter a chatbot name',
      field: 'chatbotName',
    });
  });

  it('refuses an upload that is not an image', async () => {
    const cookie = await t.signIn(identity('walter'));
    const fake = await uploadAs(
      t,
      cookie,
      Buffer.from('<html><script>alert(1)</script></html>'),
      'image/png',
    );
    const res = await post(t, '/api/creator-signup', cookie, { chatbotName: 'Bot', profileImageUrl: fake });
    expect(res.status).toBe(400);
    expect((await json(res)).error).toBe('not_an_image');
    // …and never serves it from our origin either.
    const key = new URL(fake).pathname.split('/').slice(2).join('/');
    expect((await fetch(`${t.url}/objects/${key}`)).status).toBe(404);
  });

  it("refuses another creator's upload", async () => {
    const other = await t.signIn(identity('xena'));
    const theirs = await uploadAs(t, other, PNG_1PX);
    const cookie = await t.signIn(identity('yuri'));
    const res = await post(t, '/api/creator-signup', cookie, { chatbotName: 'Bot', profileImageUrl: theirs });
    expect(res.status).toBe(400);
    expect((await json(res)).message).toBe('Invalid upload URL format');
  });

  it('refuses malformed JSON and the signed-out', async () => {
    const cookie = await t.signIn(identity('zoe'));
    const broken = await post(t, '/api/creator-signup', cookie, '{"chatbotName": ');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ error: 'invalid_json', message: expect.any(String) });
    const anonymous = await post(t, '/api/creator-signup', '', { chatbotName: 'Bot', profileImageUrl: 'x' });
    expect(anonymous.status).toBe(401);
  });

  it('refuses a body over the size limit with 413', async () => {
    const cookie = await t.signIn(identity('zoe'));
    const res = await post(t, '/api/creator-signup', cookie, { chatbotName: 'x'.repeat(2 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect((await json(res)).error).toBe('payload_too_large');
  });
});
