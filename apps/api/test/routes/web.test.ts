import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identity, onboard, startTestApp, type TestApp } from '../helpers.ts';

/** Two tiny "built" web apps, each an index.html that says which app it is. */
function builtApps() {
  const dir = mkdtempSync(path.join(tmpdir(), 'fanpilot-web-'));
  const dashboard = path.join(dir, 'dashboard');
  const fan = path.join(dir, 'fan');
  for (const [root, name] of [
    [dashboard, 'dashboard'],
    [fan, 'fan app'],
  ] as const) {
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, 'index.html'), `<!doctype html><title>${name}</title>`);
  }
  return { roots: { dashboard, fan }, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const get = (t: TestApp, url: string, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url });

describe('fan chat pages without ?creator= (the chat targets a fixed creator slug, docs/product.md#addresses)', () => {
  const apps = builtApps();
  afterAll(() => apps.remove());

  describe('with no onboarded creator', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ web: apps.roots });
      // Signed in but never onboarded: not a creator fans can chat with.
      await t.signIn(identity('dario'));
    });
    afterAll(() => t.close());

    it('serves the fan page as it is', async () => {
      for (const url of ['/fanchat-mobile', '/mobile-chat', '/mobile-chat?utm_source=qr']) {
        const res = await get(t, url);
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.body).toContain('<title>fan app</title>');
      }
    });
  });

  describe('with onboarded creators and no FANCHAT_DEFAULT_CREATOR', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ web: apps.roots });
      await t.signIn(identity('dario'));
      await onboard(t, 'bea');
      await onboard(t, 'alice');
    });
    afterAll(() => t.close());

    it('redirects (302) to the same page with the earliest-created onboarded creator', async () => {
      for (const page of ['/fanchat-mobile', '/mobile-chat', '/mobile-chat/']) {
        const res = await get(t, page);
        expect(res.statusCode, page).toBe(302);
        expect(res.headers.location).toBe(`${page}?creator=bea`);
        expect(res.headers['cache-control']).toBe('no-store');
      }
      const head = await get(t, '/fanchat-mobile', 'HEAD');
      expect(head.statusCode).toBe(302);
      expect(head.headers.location).toBe('/fanchat-mobile?creator=bea');
    });

    it('keeps the other query parameters, and replaces an empty creator', async () => {
      const res = await get(t, '/fanchat-mobile?utm_source=qr&lang=es%20MX&flag');
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/fanchat-mobile?creator=bea&utm_source=qr&lang=es%20MX&flag');
      const url = new URL(String(res.headers.location), 'http://x');
      expect(url.searchParams.get('creator')).toBe('bea');
      expect(url.searchParams.get('lang')).toBe('es MX');

      const empty = await get(t, '/mobile-chat?creator=&utm_source=qr');
      expect(empty.statusCode).toBe(302);
      expect(empty.headers.location).toBe('/mobile-chat?creator=bea&utm_source=qr');
    });

    it('serves the page when the address names a creator, and leaves /pwa/{username} alone', async () => {
      for (const url of [
        '/fanchat-mobile?creator=alice',
        '/mobile-chat?utm_source=qr&creator=alice',
        '/pwa/bea',
      ]) {
        const res = await get(t, url);
        expect(res.statusCode, url).toBe(200);
        expect(res.body).toContain('<title>fan app</title>');
      }
    });

    it('the redirect lands on a page that is served', async () => {
      const first = await get(t, '/fanchat-mobile');
      const second = await get(t, String(first.headers.location));
      expect(second.statusCode).toBe(200);
      expect(second.body).toContain('<title>fan app</title>');
    });
  });

  describe('with FANCHAT_DEFAULT_CREATOR', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ web: apps.roots, env: { FANCHAT_DEFAULT_CREATOR: 'alice' } });
      await onboard(t, 'bea');
      await onboard(t, 'alice');
    });
    afterAll(() => t.close());

    it('redirects to that creator rather than the earliest one', async () => {
      const res = await get(t, '/mobile-chat?utm_source=qr');
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/mobile-chat?creator=alice&utm_source=qr');
    });
  });
});

describe('security headers on the pages the api serves (pnpm start)', () => {
  const apps = builtApps();
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ web: apps.roots });
    await onboard(t, 'hana');
  });
  afterAll(async () => {
    await t.close();
    apps.remove();
  });

  it('sets a strict CSP, frame protection, nosniff and Referrer-Policy on every page', async () => {
    for (const url of ['/', '/creator-signup', '/dashboard/hana', '/pwa/hana', '/mobile-chat?creator=hana']) {
      const res = await get(t, url);
      expect(res.statusCode, url).toBe(200);
      const csp = String(res.headers['content-security-policy']);
      const directives = Object.fromEntries(
        csp.split(';').map((d) => {
          const [name, ...values] = d.trim().split(/\s+/);
          return [name, values];
        }),
      );
      expect(directives['script-src'], url).toEqual(["'self'"]);
      expect(directives['default-src']).toEqual(["'self'"]);
      expect(directives['object-src']).toEqual(["'none'"]);
      expect(directives['frame-ancestors']).toEqual(["'none'"]);
      expect(directives['worker-src']).toEqual(["'self'"]);
      expect(directives['manifest-src']).toEqual(["'self'"]);
      expect(directives['img-src']).toContain(t.s3.endpoint);
      expect(directives['connect-src']).toContain(t.s3.endpoint);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      // The origin is http here: no HSTS.
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });
});

describe('page status codes (any other path is the not-found page, docs/product.md#screens-and-addresses)', () => {
  const apps = builtApps();
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ web: apps.roots });
    await onboard(t, 'ines');
  });
  afterAll(async () => {
    await t.close();
    apps.remove();
  });

  it("answers 200 with the app's page on the product's routes", async () => {
    for (const url of [
      '/',
      '/?error=login_failed',
      '/creator-signup',
      '/dashboard',
      '/dashboard/',
      '/dashboard/ines',
      '/dashboard/ines/',
      '/admin',
      '/admin/ines?checkout=success',
      '/pwa/ines',
      '/fanchat-mobile?creator=ines',
      '/mobile-chat?creator=ines',
    ]) {
      const res = await get(t, url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
    }
  });

  it("answers 404 on any other page path, still with the dashboard app (its '404 Page Not Found' page)", async () => {
    for (const url of [
      '/nope',
      '/dashboard/ines/extra',
      '/creator-signup/more',
      '/pricing?x=1',
      '/fan/missing',
    ]) {
      const res = await get(t, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toContain('<title>dashboard</title>');
    }
    const head = await get(t, '/nope', 'HEAD');
    expect(head.statusCode).toBe(404);
  });

  it('keeps JSON 404s for unknown api paths', async () => {
    const res = await get(t, '/api/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'not_found' });
  });
});

describe('precompressed assets (docs/decisions/0038-landing-loads-only-what-it-shows.md)', () => {
  const apps = builtApps();
  const script = 'export const greeting = "hello";\n'.repeat(200);
  for (const [root, dir] of [
    [apps.roots.dashboard, 'assets'],
    [apps.roots.fan, 'assets'],
  ] as const) {
    mkdirSync(path.join(root, dir), { recursive: true });
    writeFileSync(path.join(root, dir, 'main-abc.js'), script);
    writeFileSync(path.join(root, dir, 'main-abc.js.br'), brotliCompressSync(script));
    writeFileSync(path.join(root, dir, 'main-abc.js.gz'), gzipSync(script));
  }
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ web: apps.roots });
  });
  afterAll(async () => {
    await t.close();
    apps.remove();
  });

  it('sends the brotli file to browsers that accept it, gzip to others, and the plain file otherwise', async () => {
    for (const url of ['/assets/main-abc.js', '/fan/assets/main-abc.js']) {
      const br = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.statusCode, url).toBe(200);
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(br.headers['content-type'], url).toMatch(/javascript/);
      expect(br.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
      expect(brotliDecompressSync(br.rawPayload).toString(), url).toBe(script);

      const gz = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding'], url).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString(), url).toBe(script);

      const plain = await t.app.inject({ url, headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(plain.body, url).toBe(script);
    }
  });
});
