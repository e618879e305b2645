import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  identity,
  json,
  onboardedCreator,
  PNG_1PX,
  startTestApp,
  type TestApp,
  uploadAs,
} from '../helpers.ts';

const availability = (t: TestApp, cookie: string, name: string) =>
  fetch(`${t.url}/api/usernames/${encodeURIComponent(name)}/availability`, { headers: { cookie } });

const signup = async (t: TestApp, cookie: string, extra: Record<string, unknown>) =>
  fetch(`${t.url}/api/creator-signup`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({
      chatbotName: 'Brand bot',
      profileImageUrl: await uploadAs(t, cookie, PNG_1PX),
      ...extra,
    }),
  });

describe('choosing the username at onboarding', () => {
  let t: TestApp;
  let newcomer: string;
  beforeAll(async () => {
    t = await startTestApp();
    // Another creator holds "sam" (onboarded) and "sam-2" is taken by one who is not yet.
    await onboardedCreator(t, 'sam');
    await t.signIn({ sub: 'sub-sam2', name: 'Sam Two', email: 'sam-2@example.com' });
    newcomer = await t.signIn(identity('nadia'));
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers whether a name is free as the creator types: free, their own, taken in any case, with a free suggestion', async () => {
    expect(await json(await availability(t, newcomer, 'nadia-cooks'))).toEqual({
      username: 'nadia-cooks',
      available: true,
    });
    // The name assigned at first sign-in is theirs to keep.
    expect(await json(await availability(t, newcomer, 'nadia'))).toEqual({
      username: 'nadia',
      available: true,
    });
    for (const variant of ['sam', 'SAM', ' Sam ']) {
      const res = await availability(t, newcomer, variant);
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({
        username: 'sam',
        available: false,
        reason: 'taken',
        message: 'This username is taken. Please choose another.',
        suggestion: 'sam-3',
      });
    }
  });

  it('says in words which rule a name breaks: reserved words, characters, unicode, length', async () => {
    const cases: [string, string, string, string | undefined][] = [
      ['api', 'reserved', 'This username is reserved. Please choose another.', 'api-fan'],
      ['Dashboard', 'reserved', 'This username is reserved. Please choose another.', 'dashboard-fan'],
      ['pwa', 'reserved', 'This username is reserved. Please choose another.', 'pwa-fan'],
      ['zoë', 'characters', expect.stringContaining('lowercase letters a–z') as never, 'zoe'],
      ['Ｓａｍ', 'characters', expect.stringContaining('lowercase letters a–z') as never, 'sam-3'],
      ['bob_smith', 'characters', expect.stringContaining('single hyphens') as never, 'bob-smith'],
      ['-bob', 'characters', expect.stringContaining('starts and ends') as never, 'bob'],
      ['<script>', 'characters', expect.stringContaining('lowercase') as never, 'script'],
      ['🙂', 'characters', expect.stringContaining('lowercase') as never, undefined],
      ['a', 'too_short', 'A username has at least 2 characters.', 'a-fan'],
      ['x'.repeat(31), 'too_long', 'A username has at most 30 characters.', 'x'.repeat(30)],
    ];
    for (const [name, reason, message, suggestion] of cases) {
      const res = await availability(t, newcomer, name);
      expect(res.status, name).toBe(200);
      const body = await json(res);
      expect(body, name).toMatchObject({ available: false, reason, message });
      expect(body.suggestion, name).toBe(suggestion);
    }
  });

  it('refuses a path beyond any username and the signed-out, in words', async () => {
    const long = await availability(t, newcomer, 'x'.repeat(201));
    expect(long.status).toBe(400);
    expect(await json(long)).toMatchObject({ error: 'validation_error', message: expect.any(String) });
    const out = await fetch(`${t.url}/api/usernames/nadia/availability`);
    expect(out.status).toBe(401);
    expect(await json(out)).toMatchObject({ error: 'unauthorized', message: expect.any(String) });
  });

  it('refuses a bad or taken username at signup with 400/409 and words, and changes nothing', async () => {
    const refusals: [unknown, number, string, string][] = [
      ['api', 400, 'validation_error', 'This username is reserved. Please choose another.'],
      ['zoë', 400, 'validation_error', USERNAME_CHARACTERS],
      ['a', 400, 'validation_error', 'A username has at least 2 characters.'],
      ['y'.repeat(31), 400, 'validation_error', 'A username has at most 30 characters.'],
      ['y'.repeat(5000), 400, 'validation_error', 'A username has at most 30 characters.'],
      [42, 400, 'validation_error', USERNAME_CHARACTERS],
      ['SAM', 409, 'username_taken', 'This username is taken. Please choose another.'],
      ['sam-2', 409, 'username_taken', 'This username is taken. Please choose another.'],
    ];
    for (const [username, status, error, message] of refusals) {
      const res = await signup(t, newcomer, { username });
      expect(res.status, String(username)).toBe(status);
      const body = await json(res);
      expect(body, String(username)).toMatchObject({ error, message });
      if (status === 400) expect(body.field, String(username)).toBe('username');
    }
    const me = await json(await fetch(`${t.url}/api/auth/user`, { headers: { cookie: newcomer } }));
    expect(me).toMatchObject({ username: 'nadia', onboardingComplete: false });
  });

  it('keeps the chosen username (lowercased): the fan link, and it never changes afterwards', async () => {
    const res = await signup(t, newcomer, { username: '  Nadia-Cooks ' });
    expect(res.status).toBe(200);
    expect((await json(res)).creator).toMatchObject({ username: 'nadia-cooks', onboardingComplete: true });
    expect((await fetch(`${t.url}/api/public/creators/nadia-cooks`)).status).toBe(200);
    // The assigned name is free again, for someone else.
    expect((await fetch(`${t.url}/api/public/creators/nadia`)).status).toBe(404);
    expect(await json(await availability(t, newcomer, 'nadia'))).toEqual({
      username: 'nadia',
      available: true,
    });

    // A second signup changes nothing, whatever username it brings.
    const again = await signup(t, newcomer, { username: 'nadia-again' });
    expect(again.status).toBe(200);
    expect((await json(again)).creator).toMatchObject({ username: 'nadia-cooks' });
  });

  it('keeps the assigned username when the payload has none (as before)', async () => {
    const cookie = await t.signIn(identity('omar'));
    const res = await signup(t, cookie, {});
    expect(res.status).toBe(200);
    expect((await json(res)).creator).toMatchObject({ username: 'omar', onboardingComplete: true });
  });

  it('gives one name to one creator when two choose it at once', async () => {
    const [a, b] = [await t.signIn(identity('pia')), await t.signIn(identity('quinn'))];
    const results = await Promise.all([
      signup(t, a, { username: 'twins' }),
      signup(t, b, { username: 'twins' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = results.find((r) => r.status === 409);
    expect(await json(refused as Response)).toEqual({
      error: 'username_taken',
      message: 'This username is taken. Please choose another.',
    });
  });
});

const USERNAME_CHARACTERS =
  'A username holds only lowercase letters a–z, digits and single hyphens, and starts and ends with a letter or digit.';
