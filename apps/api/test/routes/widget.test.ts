import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, FanBrowser, json, onboard, setCookies, startTestApp, type TestApp } from '../helpers.ts';

const SITE = 'https://cara-music.example';
const OTHER_SITE = 'https://copycat.example';
const EXTENSION = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
const token = () => randomBytes(32).toString('base64url');

/** A built fan app stand-in: the files the widget's routes serve (the real build is the e2e test's). */
function fanRoot(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'fanpilot-widget-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Fan chat</title>');
  writeFileSync(path.join(dir, 'widget.html'), '<!doctype html><title>Chat</title><div id="root"></div>');
  writeFileSync(path.join(dir, 'widget.js'), 'console.log("loader")');
  return dir;
}

describe('website widget', () => {
  let t: TestApp;
  let cara: string;
  let dino: string;
  const settings = '/api/creators/username/cara/widget';

  beforeAll(async () => {
    t = await startTestApp({ web: { fan: fanRoot() }, env: { EXTENSION_ORIGINS: EXTENSION } });
    cara = await onboard(t, 'cara');
    dino = await onboard(t, 'dino');
    // Online, so the AI stays out of these tests.
    await call(t, 'POST', '/api/toggle-status', cara, { creator: 'cara' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('a creator who saved nothing has the defaults and no allowed site', async () => {
    const res = await call(t, 'GET', settings, cara);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      sites: [],
      color: '#4f46e5',
      position: 'right',
      launcherText: 'Chat with me',
      refusedSites: [],
    });
  });

  it('saves the sites as origins (paths and case dropped, duplicates once), colour, position and text', async () => {
    const res = await call(t, 'PUT', settings, cara, {
      sites: [`${SITE}/about?x=1`, 'HTTPS://CARA-MUSIC.EXAMPLE/', 'http://localhost:8080'],
      color: '#AA3366',
      position: 'left',
      launcherText: '  Ask   Cara  ',
    });
    expect(res.status).toBe(200);
    const saved = {
      sites: [SITE, 'http://localhost:8080'],
      color: '#aa3366',
      position: 'left',
      launcherText: 'Ask Cara',
      refusedSites: [],
    };
    expect(await res.json()).toEqual(saved);
    expect(await (await call(t, 'GET', settings, cara)).json()).toEqual(saved);
  });

  it('refuses bad settings with words a creator understands, and changes nothing', async () => {
    const bad = [
      [
        { sites: ['not a site'], color: '#aa3366', position: 'left', launcherText: 'Hi' },
        'Enter each site as its address',
      ],
      [
        { sites: ['javascript:alert(1)'], color: '#aa3366', position: 'left', launcherText: 'Hi' },
        'Enter each site',
      ],
      [
        { sites: [SITE], color: 'red', position: 'left', launcherText: 'Hi' },
        'Choose a colour like #4f46e5.',
      ],
      [{ sites: [SITE], color: '#aa3366', position: 'top', launcherText: 'Hi' }, 'Choose right or left.'],
      [
        { sites: [SITE], color: '#aa3366', position: 'left', launcherText: '   ' },
        'Write the launcher text.',
      ],
      [
        { sites: [SITE], color: '#aa3366', position: 'left', launcherText: 'x'.repeat(41) },
        'at most 40 characters',
      ],
      [
        {
          sites: Array.from({ length: 21 }, (_, i) => `https://s${i}.example`),
          color: '#aa3366',
          position: 'left',
          launcherText: 'Hi',
        },
        'List at most 20 sites.',
      ],
    ] as const;
    for (const [body, words] of bad) {
      const res = await call(t, 'PUT', settings, cara, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json(res)).message).toContain(words);
    }
    expect(((await (await call(t, 'GET', settings, cara)).json()) as { sites: string[] }).sites).toEqual([
      SITE,
      'http://localhost:8080',
    ]);
  });

  it("acts only on the signed-in creator's own widget", async () => {
    expect((await call(t, 'GET', settings, dino)).status).toBe(403);
    expect(
      (
        await call(t, 'PUT', settings, dino, {
          sites: [OTHER_SITE],
          color: '#000000',
          position: 'right',
          launcherText: 'Mine',
        })
      ).status,
    ).toBe(403);
    expect((await call(t, 'GET', settings, '')).status).toBe(401);
    expect((await call(t, 'GET', '/api/creators/username/nobody-here/widget', cara)).status).toBe(404);
  });

  it('tells the loader on an allowed site how to draw the launcher, and refuses any other site in words', async () => {
    const allowed = await fetch(`${t.url}/api/widget/cara`, { headers: { origin: SITE } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(await allowed.json()).toEqual({
      name: expect.any(String),
      color: '#aa3366',
      position: 'left',
      launcherText: 'Ask Cara',
    });

    const other = await fetch(`${t.url}/api/widget/cara`, { headers: { origin: OTHER_SITE } });
    expect(other.status).toBe(403);
    // The refusal is readable by the page, so the loader can say why it shows nothing.
    expect(other.headers.get('access-control-allow-origin')).toBe(OTHER_SITE);
    expect(await json(other)).toMatchObject({
      error: 'site_not_allowed',
      message: `This chat is not enabled on ${OTHER_SITE}. The creator can add the site in Profile Settings.`,
    });
    expect((await fetch(`${t.url}/api/widget/cara`)).status).toBe(403);
    expect((await fetch(`${t.url}/api/widget/nobody-here`, { headers: { origin: SITE } })).status).toBe(404);

    // Profile Settings says where the widget was refused: well-formed origins only, the newest 5.
    await fetch(`${t.url}/api/widget/cara`, { headers: { origin: 'not an origin' } });
    for (let i = 1; i <= 6; i++) {
      await fetch(`${t.url}/api/widget/cara`, { headers: { origin: `https://copy${i}.example` } });
    }
    const refused = (
      (await (await call(t, 'GET', settings, cara)).json()) as { refusedSites: { site: string }[] }
    ).refusedSites;
    expect(refused.map((r) => r.site)).toEqual([6, 5, 4, 3, 2].map((i) => `https://copy${i}.example`));
  });

  it('serves the frame only to the allowed sites (frame-ancestors) and the loader to any page', async () => {
    const frame = await fetch(`${t.url}/widget/cara?site=${encodeURIComponent(SITE)}`);
    expect(frame.status).toBe(200);
    const csp = frame.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`frame-ancestors ${SITE} http://localhost:8080`);
    expect(csp).toContain("script-src 'self'");
    expect(frame.headers.get('x-frame-options')).toBeNull();

    const unknown = await fetch(`${t.url}/widget/nobody-here`);
    expect(unknown.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const noSites = await fetch(`${t.url}/widget/dino`);
    expect(noSites.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // The fan app and every other page still refuse framing.
    expect((await fetch(`${t.url}/pwa/cara`)).headers.get('x-frame-options')).toBe('DENY');

    const loader = await fetch(`${t.url}/widget.js`);
    expect(loader.status).toBe(200);
    expect(loader.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(loader.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(await loader.text()).toBe('console.log("loader")');
  });

  it('a widget chat is its fan token’s: no cookie is needed or set, and no other browser reads it', async () => {
    const fanToken = token();
    const widget = new FanBrowser(t, undefined, { 'x-fan-token': fanToken, 'x-widget-site': SITE });
    const asked = await widget.ask('cara', 'Hello from your website');
    expect(asked.status).toBe(200);
    expect(setCookies(asked).fp_fan).toBeUndefined();

    const read = (headers: Record<string, string>) =>
      fetch(`${t.url}/api/chatlog/fan/${widget.fanId}?creator=cara`, { headers });
    const own = await read({ 'x-fan-token': fanToken });
    expect(own.status).toBe(200);
    expect(
      ((await own.json()) as { messages: { message: string }[] }).messages.map((m) => m.message),
    ).toEqual(['Hello from your website']);
    expect((await read({ 'x-fan-token': token() })).status).toBe(403);
    expect((await read({})).status).toBe(403);

    // Another token cannot write as that fan either.
    const stranger = new FanBrowser(t, widget.fanId, { 'x-fan-token': token(), 'x-widget-site': SITE });
    expect((await stranger.ask('cara', 'I am them')).status).toBe(403);

    // Marked with its site in the creator's inbox; fan app chats are not.
    const app = new FanBrowser(t);
    expect((await app.ask('cara', 'Hello from the app')).status).toBe(200);
    const inbox = (await (
      await call(t, 'GET', '/api/creators/username/cara/conversations', cara)
    ).json()) as {
      conversations: { fanId: string; widgetSite: string | null }[];
    };
    const site = (fanId: string) => inbox.conversations.find((c) => c.fanId === fanId)?.widgetSite;
    expect(site(widget.fanId)).toBe(SITE);
    expect(site(app.fanId)).toBeNull();
  });

  it("opens the frame's chat with a partitioned httpOnly cookie, read only on calls with the site header", async () => {
    const open = (headers: Record<string, string>, body: Record<string, unknown> = {}) =>
      fetch(`${t.url}/api/widget/cara/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const first = await open({ 'x-widget-site': SITE });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ color: '#aa3366', fanId: null, fanName: null, moved: 0 });
    const line = first.headers.getSetCookie().find((l) => l.startsWith('fp_wfan='))!;
    expect(line).toMatch(/; HttpOnly/i);
    expect(line).toMatch(/; Secure/i);
    expect(line).toMatch(/; SameSite=None/i);
    expect(line).toMatch(/; Partitioned/i);
    expect(setCookies(first).fp_fan).toBeUndefined();
    const cookie = `fp_wfan=${setCookies(first).fp_wfan}`;

    // The frame asks with its cookie and site header; the next open finds that conversation.
    const fanId = `mobile_fan_${randomBytes(6).toString('hex')}`;
    const widget = new FanBrowser(t, fanId, { cookie, 'x-widget-site': SITE });
    expect((await widget.ask('cara', 'Hi from the frame', { fanName: 'Rosa' })).status).toBe(200);
    const again = await open({ cookie, 'x-widget-site': SITE });
    expect(await again.json()).toEqual({ color: '#aa3366', fanId, fanName: 'Rosa', moved: 0 });
    expect(setCookies(again).fp_wfan).toBeUndefined();

    // Without the frame's header the cookie is nobody's: a page elsewhere cannot use it.
    const chatlog = `${t.url}/api/chatlog/fan/${fanId}?creator=cara`;
    expect((await fetch(chatlog, { headers: { cookie } })).status).toBe(403);
    expect((await fetch(chatlog, { headers: { cookie, 'x-widget-site': SITE } })).status).toBe(200);
    // Nor does the fan app's cookie open a widget chat, or anything open on a site not listed.
    expect((await open({ 'x-widget-site': OTHER_SITE })).status).toBe(403);
    const noSite = await open({});
    expect(noSite.status).toBe(403);
    expect(await json(noSite)).toMatchObject({ error: 'site_not_allowed' });
    expect(setCookies(noSite).fp_wfan).toBeUndefined();
  });

  it("exchanges an old loader's token once: its conversations move to the frame's cookie, the token opens nothing", async () => {
    const oldToken = token();
    const old = new FanBrowser(t, undefined, { 'x-fan-token': oldToken, 'x-widget-site': SITE });
    expect((await old.ask('cara', 'Asked before the cookie')).status).toBe(200);
    const exchanged = await fetch(`${t.url}/api/widget/cara/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-widget-site': SITE },
      body: JSON.stringify({ legacyToken: oldToken }),
    });
    expect(exchanged.status).toBe(200);
    expect(await exchanged.json()).toEqual({ color: '#aa3366', fanId: old.fanId, fanName: null, moved: 1 });
    const cookie = `fp_wfan=${setCookies(exchanged).fp_wfan}`;
    const chatlog = `${t.url}/api/chatlog/fan/${old.fanId}?creator=cara`;
    expect((await fetch(chatlog, { headers: { 'x-fan-token': oldToken } })).status).toBe(403);
    expect((await fetch(chatlog, { headers: { cookie, 'x-widget-site': SITE } })).status).toBe(200);
    // A second exchange of the same token moves nothing; a token that is not one is a 400 in words.
    const twice = await fetch(`${t.url}/api/widget/cara/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-widget-site': SITE, cookie },
      body: JSON.stringify({ legacyToken: oldToken }),
    });
    expect(await twice.json()).toMatchObject({ fanId: old.fanId, moved: 0 });
    const bad = await fetch(`${t.url}/api/widget/cara/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-widget-site': SITE },
      body: JSON.stringify({ legacyToken: 'short' }),
    });
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({ message: expect.stringContaining('old token') });
  });

  it('refuses a widget question from a site the creator did not list, storing nothing', async () => {
    const widget = new FanBrowser(t, undefined, { 'x-fan-token': token(), 'x-widget-site': OTHER_SITE });
    const res = await widget.ask('cara', 'Hi');
    expect(res.status).toBe(403);
    expect(await json(res)).toMatchObject({ error: 'site_not_allowed' });
    const row = await t.db.db
      .selectFrom('fans')
      .select('id')
      .where('fan_key', '=', widget.fanId)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('a malformed token header counts as none (the cookie rule applies)', async () => {
    const fan = new FanBrowser(t, undefined, { 'x-fan-token': 'short' });
    const res = await fan.ask('cara', 'Hi there');
    expect(res.status).toBe(200);
    expect(setCookies(res).fp_fan).toBeDefined();
  });

  it('takes fan calls from the listed extension only with a fan token, never a cookie-driven one', async () => {
    const fanToken = token();
    const extension = new FanBrowser(t, undefined, { origin: EXTENSION, 'x-fan-token': fanToken });
    expect((await extension.ask('cara', 'Hello from the side panel')).status).toBe(200);
    // Without the token (a page driving the browser's cookies), the extension's Origin is refused.
    const cookieOnly = new FanBrowser(t, undefined, { origin: EXTENSION });
    const refused = await cookieOnly.ask('cara', 'Hi');
    expect(refused.status).toBe(403);
    expect((await json(refused)).error).toBe('bad_origin');
    // Another extension is refused even with a token.
    const other = new FanBrowser(t, undefined, {
      origin: 'chrome-extension://zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz',
      'x-fan-token': token(),
    });
    expect((await other.ask('cara', 'Hi')).status).toBe(403);
  });
});
