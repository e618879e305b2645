import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type FakeOpenAI, startFakeOpenAI } from '@fanpilot/testkit';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  creatorCall,
  FAN_RESULTS_DIR,
  type FanTestApi,
  type FanTestCreator,
  fanFreePort,
  onboardFanTestCreator,
  startFanTestApi,
} from './fan-helpers.ts';

/**
 * The website widget in Chromium (issue 28): a creator's site on another loopback site (localhost,
 * while the product is 127.0.0.1) with a strict CSP that allows only the product's origin, in a
 * browser that blocks third-party cookies. One snippet shows a launcher; opening it loads the fan
 * app's chat in a frame, where a question gets the AI's answer streamed as it is written, the
 * conversation stays this browser's on this site, and "Continue in the app" moves it to the fan app.
 */
describe('website widget on a creator site (built api and widget)', () => {
  let api: FanTestApi;
  let openai: FakeOpenAI;
  let creator: FanTestCreator;
  let site: Server;
  let siteOrigin: string;
  let otherOrigin: string;
  let context: BrowserContext;
  const profileDirs: string[] = [];
  const violations: string[] = [];

  /** A browser blocking third-party cookies, as its own setting (and the phase-out switch). */
  const blockedContext = async (viewport = { width: 1280, height: 800 }) => {
    const profileDir = mkdtempSync(path.join(tmpdir(), 'fanpilot-widget-profile-'));
    profileDirs.push(profileDir);
    mkdirSync(path.join(profileDir, 'Default'), { recursive: true });
    writeFileSync(
      path.join(profileDir, 'Default', 'Preferences'),
      JSON.stringify({ profile: { cookie_controls_mode: 1, block_third_party_cookies: true } }),
    );
    return chromium.launchPersistentContext(profileDir, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--test-third-party-cookie-phaseout'],
      viewport,
    });
  };

  const hostPage = (body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Cara's music</title>
<link rel="stylesheet" href="/site.css"></head>
<body><main><h1>Cara's music</h1><p>Tour dates, lessons and the new album.</p>
<p id="last-line">Thanks for visiting.</p></main>${body}</body></html>`;

  beforeAll(async () => {
    openai = await startFakeOpenAI();
    openai.answerWith(
      () => 'Lessons are on Tuesdays and Thursdays at the studio, one hour each, with a short warm up first.',
    );
    // A model writing word by word: the answer is seen growing before it is stored.
    openai.streamWordsEvery(120);
    api = await startFanTestApi({
      OPENAI_API_KEY: 'sk-widget',
      OPENAI_BASE_URL: openai.baseUrl,
      ASK_RATE_LIMIT_PER_FAN: '3',
    });
    creator = await onboardFanTestCreator(api, 'Cara bot');

    const port = await fanFreePort();
    // Another site than the product's (127.0.0.1): the frame is third-party here.
    siteOrigin = `http://localhost:${port}`;
    otherOrigin = `http://localhost:${await fanFreePort()}`;
    // Only the product's origin may load scripts, connect and be framed; no inline script or style.
    const csp = [
      "default-src 'none'",
      `script-src ${api.url}`,
      `connect-src ${api.url}`,
      `frame-src ${api.url}`,
      "style-src 'self'",
      "img-src 'self'",
    ].join('; ');
    const snippet = `<script src="${api.url}/widget.js" data-creator="${creator.username}" async></script>`;
    site = createServer((req, res) => {
      if (req.url === '/site.css') {
        res.writeHead(200, { 'content-type': 'text/css' });
        res.end(
          'body{font-family:Georgia,serif;margin:2rem;background:#fdf6ec}h1{color:#7c2d12}button{background:#000}',
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp });
      res.end(hostPage(req.url === '/no-widget' ? '' : snippet));
    });
    await new Promise<void>((resolve) => site.listen(port, '127.0.0.1', resolve));

    await creatorCall(api, creator, 'PUT', `/api/creators/username/${creator.username}/widget`, {
      sites: [siteOrigin],
      color: '#be185d',
      position: 'right',
      launcherText: 'Ask Cara',
    });

    context = await blockedContext();
    context.on('console', (message) => {
      if (/Content Security Policy|CSP violation/.test(message.text())) violations.push(message.text());
    });
  });

  afterAll(async () => {
    await context?.close();
    for (const dir of profileDirs) rmSync(dir, { recursive: true, force: true });
    site?.closeAllConnections();
    await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
    await api?.stop();
    await openai?.close();
  });

  const launcher = (page: Page) => page.locator('[data-fanpilot-widget] button.launcher');
  const chatFrame = (page: Page) => page.frameLocator('[data-fanpilot-widget] iframe');

  it('loads a small launcher and nothing else until it is opened, with no layout shift', async () => {
    const page = await context.newPage();
    const fromProduct: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(api.url)) fromProduct.push(new URL(request.url()).pathname);
    });
    await page.addInitScript(() => {
      (window as unknown as { shifts: number }).shifts = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          (window as unknown as { shifts: number }).shifts += (entry as unknown as { value: number }).value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(siteOrigin);
    await expect.poll(() => launcher(page).textContent()).toBe('Ask Cara');
    // The page's own styles do not reach the launcher (its button rule is black), ours do.
    expect(await launcher(page).evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      'rgb(190, 24, 93)',
    );
    const box = await launcher(page).boundingBox();
    expect(box!.x + box!.width).toBeGreaterThan(1280 - 40);
    expect(box!.y + box!.height).toBeGreaterThan(800 - 40);
    // Nor does ours reach the page.
    expect(await page.locator('h1').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(124, 45, 18)');
    // Whatever the launcher would fetch has gone out once the page's network is quiet.
    await page.waitForLoadState('networkidle');
    expect(fromProduct.sort()).toEqual([`/api/widget/${creator.username}`, '/widget.js']);
    expect(await page.evaluate(() => (window as unknown as { shifts: number }).shifts)).toBe(0);
    mkdirSync(FAN_RESULTS_DIR, { recursive: true });
    await page.screenshot({ path: path.join(FAN_RESULTS_DIR, 'widget-launcher-on-site.png') });
    await page.close();
  });

  it('opens the chat in the frame; a question gets the AI answer streamed, the fan kept in a partitioned cookie', async () => {
    const page = await context.newPage();
    await page.goto(siteOrigin);
    await launcher(page).click();
    const frame = chatFrame(page);
    const box = frame.getByRole('textbox', { name: 'Message' });
    await box.waitFor({ timeout: 20_000 });
    await box.fill('When are the lessons?');
    await frame.getByRole('button', { name: 'Send message' }).click();
    // The answer arrives as it is written ("Writing…" under a growing bubble), then stored.
    await frame.getByText('Writing…').waitFor({ timeout: 20_000 });
    await page.screenshot({ path: path.join(FAN_RESULTS_DIR, 'widget-answer-streaming.png') });
    await frame
      .getByText('Lessons are on Tuesdays and Thursdays at the studio, one hour each')
      .waitFor({ timeout: 20_000 });
    await expect.poll(() => frame.getByText('Writing…').count(), { timeout: 20_000 }).toBe(0);
    // The stored answer took the draft's place, with the rating every stored AI answer has.
    await frame.getByText('one hour each, with a short warm up first.').waitFor();
    expect(await frame.getByText('one hour each, with a short warm up first.').count()).toBe(1);
    await page.screenshot({ path: path.join(FAN_RESULTS_DIR, 'widget-open-chat-on-site.png') });

    // Third-party cookies are blocked: the frame has no unpartitioned storage access; the fan is
    // its partitioned, httpOnly cookie, kept for this site only (record 0072).
    const frameHandle = page.frames().find((f) => f.url().startsWith(`${api.url}/widget/`));
    expect(await frameHandle!.evaluate(() => document.hasStorageAccess())).toBe(false);
    const cookies = await context.cookies(api.url);
    expect(cookies.map((c) => c.name)).toEqual(['fp_wfan']);
    expect(cookies[0]).toMatchObject({ httpOnly: true, secure: true, sameSite: 'None' });
    // Partitioned by the embedding site (scheme and host, no port).
    expect((cookies[0] as { partitionKey?: string }).partitionKey).toBe('http://localhost');

    // The creator sees the conversation, marked with the site.
    const inbox = (await creatorCall(
      api,
      creator,
      'GET',
      `/api/creators/username/${creator.username}/conversations`,
    )) as {
      conversations: { widgetSite: string | null }[];
    };
    expect(inbox.conversations.map((c) => c.widgetSite)).toEqual([siteOrigin]);

    // Back later on the same site in the same browser: the same conversation.
    await page.reload();
    await launcher(page).click();
    await chatFrame(page).getByText('When are the lessons?').waitFor({ timeout: 20_000 });
    expect(violations).toEqual([]);
    await page.close();
  });

  it('keeps no fan secret in the host page: the page holds no token and its scripts cannot read the chat', async () => {
    const inbox = (await creatorCall(
      api,
      creator,
      'GET',
      `/api/creators/username/${creator.username}/conversations`,
    )) as { conversations: { fanId: string }[] };
    const fanId = inbox.conversations[0]!.fanId;
    const chatlog = `${api.url}/api/chatlog/fan/${encodeURIComponent(fanId)}?creator=${creator.username}`;
    const page = await context.newPage();
    await page.goto(siteOrigin);
    await launcher(page).click();
    await chatFrame(page).getByText('When are the lessons?').waitFor({ timeout: 20_000 });

    // Everything a script in the host page (an analytics or ad tag) can read: none of it is the fan's.
    const exposed = await page.evaluate(() => ({
      local: Object.entries(localStorage),
      session: Object.entries(sessionStorage),
      cookie: document.cookie,
      frameDocument:
        document.querySelector('[data-fanpilot-widget]')?.shadowRoot?.querySelector('iframe')
          ?.contentDocument ?? null,
    }));
    expect(exposed).toEqual({ local: [], session: [], cookie: '', frameDocument: null });
    // Nor can such a script ask the api for the conversation: the browser sends the partitioned
    // cookie, but the answer is not the page's to read, and the frame's header needs a permission
    // the api never gives.
    const fromPage = await page.evaluate(async (url) => {
      const attempt = async (init: RequestInit) => {
        try {
          const response = await fetch(url, init);
          return `${response.type} ${response.status} ${await response.text()}`;
        } catch {
          return 'refused';
        }
      };
      return [
        await attempt({ credentials: 'include' }),
        await attempt({ credentials: 'include', headers: { 'x-widget-site': location.origin } }),
        await attempt({ credentials: 'include', mode: 'no-cors' }),
      ];
    }, chatlog);
    // (no-cors too: the api's Cross-Origin-Resource-Policy keeps even an opaque answer away.)
    expect(fromPage).toEqual(['refused', 'refused', 'refused']);
    // The cookie opens the chat only on the frame's own calls (its X-Widget-Site), never alone.
    const [cookie] = await context.cookies(api.url);
    const read = (headers: Record<string, string>) => fetch(chatlog, { headers });
    expect((await read({ cookie: `fp_wfan=${cookie!.value}` })).status).toBe(403);
    const own = await read({ cookie: `fp_wfan=${cookie!.value}`, 'x-widget-site': siteOrigin });
    expect(own.status).toBe(200);
    expect(JSON.stringify(await own.json())).toContain('When are the lessons?');
    await page.close();
  });

  it("moves a fan an old loader kept in the page to the frame's cookie once, and the page forgets the token", async () => {
    // What a loader of before kept in the site's localStorage, with a conversation under its token.
    const oldToken = Buffer.alloc(32, 7).toString('base64url');
    const oldFanId = `mobile_fan_oldloader_${Date.now()}_${'ab'.repeat(16)}`;
    const asked = await fetch(`${api.url}/api/ask`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'idempotency-key': `old-${Date.now()}`,
        'x-fan-token': oldToken,
        'x-widget-site': siteOrigin,
      },
      body: JSON.stringify({
        creator: creator.username,
        fanId: oldFanId,
        message: 'A question from last month',
      }),
    });
    expect(asked.status).toBeLessThan(300);
    const oldChatlog = `${api.url}/api/chatlog/fan/${encodeURIComponent(oldFanId)}?creator=${creator.username}`;
    const withOldToken = () => fetch(oldChatlog, { headers: { 'x-fan-token': oldToken } });
    expect((await withOldToken()).status).toBe(200);

    const visitor = await blockedContext();
    try {
      const page = await visitor.newPage();
      const key = `fanpilot.widget.${api.url}.${creator.username.toLowerCase()}`;
      await page.goto(`${siteOrigin}/no-widget`);
      await page.evaluate(
        ([k, v]) => localStorage.setItem(k!, v!),
        [key, JSON.stringify({ fanpilot_fan_token: oldToken, fanchat_fan_id: oldFanId })],
      );
      await page.goto(siteOrigin);
      await launcher(page).click();
      await chatFrame(page).getByText('A question from last month').waitFor({ timeout: 20_000 });
      // The page forgets it, and the old token opens nothing any more; the cookie does.
      await expect.poll(() => page.evaluate(() => Object.keys(localStorage))).toEqual([]);
      expect((await withOldToken()).status).toBe(403);
      await page.reload();
      await launcher(page).click();
      await chatFrame(page).getByText('A question from last month').waitFor({ timeout: 20_000 });
      expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
    } finally {
      await visitor.close();
    }
  });

  it('a limit is said in words a visitor understands, never "Server error"', async () => {
    const page = await context.newPage();
    await page.goto(siteOrigin);
    await launcher(page).click();
    const frame = chatFrame(page);
    const box = frame.getByRole('textbox', { name: 'Message' });
    await box.waitFor({ timeout: 20_000 });
    // Three questions a window per fan (ASK_RATE_LIMIT_PER_FAN=3); one was asked above.
    for (const text of ['Second question', 'Third question', 'Fourth question']) {
      await box.fill(text);
      // Each question's call is answered (taken or refused) before the next is typed.
      const answered = page.waitForResponse(
        (response) => response.request().method() === 'POST' && response.url().includes('/api/ask'),
        { timeout: 20_000 },
      );
      await frame.getByRole('button', { name: 'Send message' }).click();
      await answered;
    }
    // The specified failure text, and what to do about it in plain words.
    await frame.getByText('Message failed to send. Please try again.').waitFor({ timeout: 20_000 });
    await frame.getByText(/You’re sending messages quickly\. Try again in \d+ s\./).waitFor();
    await page.screenshot({ path: path.join(FAN_RESULTS_DIR, 'widget-limit-in-words.png') });
    expect(await frame.getByText(/server error/i).count()).toBe(0);
    await page.close();
  });

  it('"Continue in the app" opens the fan app in a new tab with the conversation', async () => {
    const page = await context.newPage();
    await page.goto(siteOrigin);
    await launcher(page).click();
    const frame = chatFrame(page);
    const button = frame.getByRole('button', { name: 'Continue in the app' });
    await button.waitFor({ timeout: 20_000 });
    const [app] = await Promise.all([context.waitForEvent('page'), button.click()]);
    await app.waitForURL(new RegExp(`${api.url}/pwa/${creator.username}`), { timeout: 20_000 });
    await app.getByText('When are the lessons?').waitFor({ timeout: 20_000 });
    await app.close();
    await page.close();
  });

  it('shows nothing on a site the creator did not list, and the frame refuses to be embedded there', async () => {
    const page = await context.newPage();
    const warnings: string[] = [];
    page.on('console', (message) => warnings.push(message.text()));
    const other = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<!doctype html><title>Copycat</title><script src="${api.url}/widget.js" data-creator="${creator.username}" async></script>` +
          `<iframe id="direct" src="${api.url}/widget/${creator.username}?site=${encodeURIComponent(otherOrigin)}"></iframe>`,
      );
    });
    await new Promise<void>((resolve) =>
      other.listen(Number(new URL(otherOrigin).port), '127.0.0.1', resolve),
    );
    try {
      await page.goto(otherOrigin);
      await expect
        .poll(() => warnings.find((w) => w.includes('Fanpilot widget:')))
        .toBe(
          `Fanpilot widget: This chat is not enabled on ${otherOrigin}. The creator can add the site in Profile Settings.`,
        );
      expect(await page.locator('[data-fanpilot-widget]').count()).toBe(0);
      // The browser refused the frame (frame-ancestors): it never shows the chat. The page's load
      // event waits for its frames, the refused one included.
      await page.waitForLoadState('load');
      const direct = page.frames().find((f) => f.url().includes('/widget/'));
      const shown = direct ? await direct.getByRole('textbox', { name: 'Message' }).count() : 0;
      expect(shown).toBe(0);
    } finally {
      await page.close();
      other.closeAllConnections();
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it('Profile Settings shows the snippet with a copy button, the settings and a live preview', async () => {
    const dashboard = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    try {
      const desk = await dashboard.newContext({ viewport: { width: 1440, height: 1000 }, baseURL: api.url });
      const session = /fp_session=([^;]+)/.exec(creator.cookie)?.[1] ?? '';
      await desk.addCookies([{ name: 'fp_session', value: session, url: api.url }]);
      const page = await desk.newPage();
      await page.goto(`/dashboard/${creator.username}`);
      await page.getByRole('complementary').getByRole('button', { name: 'Profile Settings' }).click();
      const card = page.locator('section', {
        has: page.getByRole('heading', { name: 'Chat on your website' }),
      });
      await card.waitFor({ timeout: 20_000 });
      expect(await card.getByLabel('Snippet for your website').inputValue()).toBe(
        `<script src="${api.url}/widget.js" data-creator="${creator.username}" async></script>`,
      );
      await card.getByRole('button', { name: 'Copy snippet' }).waitFor();
      expect(await card.getByLabel('Sites allowed to show your chat').inputValue()).toBe(siteOrigin);
      // The preview follows the form before anything is saved.
      await card.getByLabel('Launcher text').fill('Talk to Cara');
      await card.getByLabel('Bottom left').check();
      const launcherPreview = card.getByTestId('widget-preview-launcher');
      await expect.poll(() => launcherPreview.textContent()).toBe('Talk to Cara');
      expect(await launcherPreview.evaluate((el) => el.className)).toContain('left-3');
      // A line that is not a site is said so, and nothing can be saved with it.
      await card.getByLabel('Sites allowed to show your chat').fill(`${siteOrigin}\nnot a site`);
      await card.getByText('"not a site" is not a site address.').waitFor();
      expect(await card.getByRole('button', { name: 'Save widget' }).isDisabled()).toBe(true);
      await card.getByLabel('Sites allowed to show your chat').fill(siteOrigin);
      await card.getByRole('button', { name: 'Save widget' }).click();
      await expect
        .poll(
          async () =>
            (
              (await creatorCall(
                api,
                creator,
                'GET',
                `/api/creators/username/${creator.username}/widget`,
              )) as { launcherText: string }
            ).launcherText,
        )
        .toBe('Talk to Cara');
      await card.scrollIntoViewIfNeeded();
      await card.screenshot({ path: path.join(FAN_RESULTS_DIR, 'widget-profile-settings.png') });
    } finally {
      await dashboard.close();
    }
  });
});
