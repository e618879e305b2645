import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, json, onboard, PNG_1PX, startTestApp, type TestApp, uploadAs } from '../helpers.ts';

describe('creator profile', () => {
  let t: TestApp;
  let alice: string;
  beforeAll(async () => {
    t = await startTestApp();
    alice = await onboard(t, 'alice');
    await onboard(t, 'bruno');
  });
  afterAll(async () => {
    await t.close();
  });

  it('reads the signed-in creator by username', async () => {
    const res = await fetch(`${t.url}/api/creators/username/alice`, { headers: { cookie: alice } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      username: 'alice',
      name: 'Alice Tester',
      onboardingComplete: true,
    });
  });

  it("refuses another creator's username with 403, an unknown one with 404, the signed-out with 401", async () => {
    const other = await fetch(`${t.url}/api/creators/username/bruno`, { headers: { cookie: alice } });
    expect(other.status).toBe(403);
    expect((await json(other)).error).toBe('forbidden');
    const unknown = await fetch(`${t.url}/api/creators/username/nobody`, { headers: { cookie: alice } });
    expect(unknown.status).toBe(404);
    expect((await fetch(`${t.url}/api/creators/username/alice`)).status).toBe(401);
  });

  it('updates the profile image from a fresh upload and refuses it for someone else', async () => {
    const image = await uploadAs(t, alice, PNG_1PX);
    const res = await fetch(`${t.url}/api/creators/username/alice/profile-image`, {
      method: 'PUT',
      headers: { cookie: alice, 'content-type': 'application/json' },
      body: JSON.stringify({ profileImageURL: image }),
    });
    expect(res.status).toBe(200);
    const { creator } = (await res.json()) as { creator: { profileImageUrl: string } };
    expect(creator.profileImageUrl).toContain(new URL(image).pathname.split('/').pop());

    const other = await fetch(`${t.url}/api/creators/username/bruno/profile-image`, {
      method: 'PUT',
      headers: { cookie: alice, 'content-type': 'application/json' },
      body: JSON.stringify({ profileImageURL: image }),
    });
    expect(other.status).toBe(403);
  });

  it('answers unknown api routes with a JSON 404', async () => {
    const res = await fetch(`${t.url}/api/nothing-here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'not_found', message: expect.any(String) });
  });

  it('reports health and readiness', async () => {
    expect(await (await fetch(`${t.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${t.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', storage: 'ok' } });
  });
});

describe("the creator's description (issue 29)", () => {
  let t: TestApp;
  let owner: string;
  let other: string;
  beforeAll(async () => {
    t = await startTestApp();
    owner = await onboard(t, 'delia');
    other = await onboard(t, 'emil');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is edited by its owner only, trimmed and bounded, and shown to fans with the chatbot name', async () => {
    const path = '/api/creators/username/delia/description';
    const saved = await call(t, 'PUT', path, owner, { description: '  I bake sourdough and teach it.  ' });
    expect(saved.status).toBe(200);
    expect(await json(saved)).toEqual({ description: 'I bake sourdough and teach it.' });
    const me = await json(await call(t, 'GET', '/api/auth/user', owner));
    expect(me).toMatchObject({ description: 'I bake sourdough and teach it.' });
    const pub = await json(await call(t, 'GET', '/api/public/creators/delia', ''));
    expect(pub).toMatchObject({ description: 'I bake sourdough and teach it.', chatbotName: 'delia bot' });

    // Bad and hostile input: too long, not text, missing; another creator; signed out.
    for (const body of [{ description: 'x'.repeat(1001) }, { description: 42 }, {}]) {
      const res = await call(t, 'PUT', path, owner, body);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect((await json(res)).message).toBeTruthy();
    }
    expect((await call(t, 'PUT', path, other, { description: 'hijacked' })).status).toBe(403);
    expect((await call(t, 'PUT', path, '', { description: 'hijacked' })).status).toBe(401);
    const after = await json(await call(t, 'GET', '/api/public/creators/delia', ''));
    expect(after).toMatchObject({ description: 'I bake sourdough and teach it.' });
    // Emptied: fans see nothing of it.
    expect(await json(await call(t, 'PUT', path, owner, { description: '   ' }))).toEqual({
      description: '',
    });
  });
});
