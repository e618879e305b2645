import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, onboard, PNG_1PX, startTestApp, type TestApp, uploadAs } from '../helpers.ts';

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
