import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieHeader, identity, json, setCookies, startTestApp, type TestApp } from '../helpers.ts';

/** The browser's side of the code flow: start, let the provider approve, land on our callback. */
async function codeFlow(t: TestApp, startPath = '/auth/google') {
  const start = await fetch(`${t.url}${startPath}`, { redirect: 'manual' });
  const jar = setCookies(start);
  const authorize = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  const callback = await fetch(authorize.headers.get('location')!, {
    redirect: 'manual',
    headers: { cookie: cookieHeader(jar) },
  });
  return { jar, callback };
}

describe('sign-in with the OpenID provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('starts the code flow with PKCE and state against the discovered endpoints', async () => {
    const res = await fetch(`${t.url}/auth/google`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin).toBe(new URL(t.oidc.issuer).origin);
    expect(location.pathname).toBe('/authorize');
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('state')).toBeTruthy();
    expect(location.searchParams.get('redirect_uri')).toBe(`${t.url}/auth/google/callback`);
    expect(location.searchParams.get('scope')).toContain('openid');
  });

  it('creates the creator on first sign-in, sets a signed httpOnly Lax cookie and sends them to onboarding', async () => {
    t.oidc.setIdentity(identity('bob'));
    const { callback } = await codeFlow(t);
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe('/creator-signup');
    const line = callback.headers.getSetCookie().find((c) => c.startsWith('fp_session='))!;
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).not.toMatch(/Secure/i);

    const cookie = `fp_session=${setCookies(callback).fp_session}`;
    const me = await fetch(`${t.url}/api/auth/user`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({
      id: expect.any(String),
      username: 'bob',
      name: 'Bob Tester',
      email: 'bob@example.com',
      description: '',
      profileImageUrl: null,
      onboardingComplete: false,
    });
  });

  it('finds the same creator on a second sign-in instead of creating another', async () => {
    const first = await t.signIn(identity('carol'));
    const second = await t.signIn(identity('carol'));
    const a = await json(await fetch(`${t.url}/api/auth/user`, { headers: { cookie: first } }));
    const b = await json(await fetch(`${t.url}/api/auth/user`, { headers: { cookie: second } }));
    expect(a.id).toBe(b.id);
    const rows = await t.db.db
      .selectFrom('creators')
      .select('id')
      .where('google_sub', '=', 'sub-carol')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('gives two people with the same e-mail name different usernames', async () => {
    await t.signIn({ sub: 'dup-1', name: 'Dana One', email: 'dana@one.example' });
    await t.signIn({ sub: 'dup-2', name: 'Dana Two', email: 'dana@two.example' });
    const rows = await t.db.db
      .selectFrom('creators')
      .select('username')
      .where('google_sub', 'in', ['dup-1', 'dup-2'])
      .orderBy('created_at')
      .execute();
    expect(rows.map((r) => r.username)).toEqual(['dana', 'dana-2']);
  });

  it('in a popup, answers a page that closes itself', async () => {
    const { jar, callback } = await codeFlow(t, '/auth/google?popup=1');
    expect(jar.fp_oauth_popup).toBe('1');
    expect(callback.status).toBe(200);
    expect(callback.headers.get('content-type')).toContain('text/html');
    const page = await callback.text();
    // Its script is a file of ours: the Content-Security-Policy allows no inline script.
    expect(page).toMatch(/<script src="\/auth\/popup.js" data-destination="[^"]*"><\/script>/);
    expect(page).not.toMatch(/<script>/);
    const script = await fetch(`${t.url}/auth/popup.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toContain('window.close()');
    expect(setCookies(callback).fp_session).toBeTruthy();
  });

  it('sends a tampered state back to the landing page with oauth_callback_failed and signs nobody in', async () => {
    t.oidc.setIdentity(identity('mallory'));
    const start = await fetch(`${t.url}/auth/google`, { redirect: 'manual' });
    const jar = setCookies(start);
    const authorize = await fetch(start.headers.get('location')!, { redirect: 'manual' });
    const back = new URL(authorize.headers.get('location')!);
    back.searchParams.set('state', 'forged-state');
    const callback = await fetch(back, { redirect: 'manual', headers: { cookie: cookieHeader(jar) } });
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe('/?error=oauth_callback_failed');
    expect(setCookies(callback).fp_session).toBeUndefined();
    const rows = await t.db.db
      .selectFrom('creators')
      .select('id')
      .where('google_sub', '=', 'sub-mallory')
      .execute();
    expect(rows).toEqual([]);
  });

  it('sends a provider error back to the landing page with google_oauth_error', async () => {
    const res = await fetch(
      `${t.url}/auth/google/callback?error=access_denied&error_description=User+said+no`,
      {
        redirect: 'manual',
      },
    );
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!, t.url);
    expect(location.pathname).toBe('/');
    expect(location.searchParams.get('error')).toBe('google_oauth_error');
    expect(location.searchParams.get('details')).toBe('User said no');
  });

  it('sends a callback without a code or state back to the landing page with oauth_callback_failed', async () => {
    const start = await fetch(`${t.url}/auth/google`, { redirect: 'manual' });
    const jar = setCookies(start);
    const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
    for (const query of [`?code=&state=${state}`, '?code=abc', `?state=${state}`, '']) {
      const res = await fetch(`${t.url}/auth/google/callback${query}`, {
        redirect: 'manual',
        headers: { cookie: cookieHeader(jar) },
      });
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get('location')!, t.url);
      expect(location.pathname).toBe('/');
      expect(location.searchParams.get('error')).toBe('oauth_callback_failed');
      expect(setCookies(res).fp_session).toBeUndefined();
    }
  });

  it('sends a failed code exchange back with oauth_callback_failed', async () => {
    const { Events } = await import('oauth2-mock-server');
    t.oidc.server.service.once(Events.BeforeResponse, (response) => {
      response.statusCode = 500;
      response.body = { error: 'server_error' };
    });
    const { callback: res } = await codeFlow(t);
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location')!, t.url).searchParams.get('error')).toBe(
      'oauth_callback_failed',
    );
  });

  it('sends a missing user back with no_user_returned', async () => {
    const { Events } = await import('oauth2-mock-server');
    t.oidc.server.service.once(Events.BeforeUserinfo, (response) => {
      response.body = { name: 'No Subject' };
    });
    const { callback: res } = await codeFlow(t);
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location')!, t.url).searchParams.get('error')).toBe('no_user_returned');
  });

  it('answers 401 to the current-user call when signed out, forged or logged out', async () => {
    const anonymous = await fetch(`${t.url}/api/auth/user`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: 'unauthorized', message: expect.any(String) });

    const forged = await fetch(`${t.url}/api/auth/user`, { headers: { cookie: 'fp_session=abc.def' } });
    expect(forged.status).toBe(401);

    const cookie = await t.signIn(identity('erin'));
    const [name, value] = cookie.split('=');
    const tampered = `${name}=${value!.slice(0, -2)}xx`;
    expect((await fetch(`${t.url}/api/auth/user`, { headers: { cookie: tampered } })).status).toBe(401);

    const out = await fetch(`${t.url}/auth/logout`, { redirect: 'manual', headers: { cookie } });
    expect(out.status).toBe(302);
    expect(out.headers.get('location')).toBe('/');
    // The old cookie no longer works: the session ended on the server, not just in the browser.
    expect((await fetch(`${t.url}/api/auth/user`, { headers: { cookie } })).status).toBe(401);
  });

  it('answers 401 once a session has expired', async () => {
    const cookie = await t.signIn(identity('frank'));
    await t.db.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    // Written here, not through the api: wait until its process has heard it from the change feed.
    await t.app.changes.caughtUp();
    expect((await fetch(`${t.url}/api/auth/user`, { headers: { cookie } })).status).toBe(401);
  });
});
