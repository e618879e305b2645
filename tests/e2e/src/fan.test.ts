import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type FanTestApi,
  type FanTestCreator,
  fanCspViolations,
  launchFanChromium,
  newFanPhoneContext,
  onboardFanTestCreator,
  readFanIdFrom,
  saveFanScreenshot,
  startFanTestApi,
  waitForFanServiceWorker,
} from './fan-helpers.ts';
import { afterResponses } from './helpers/browser.ts';

let api: FanTestApi;
let browser: Browser;
let creator: FanTestCreator;
const contexts: BrowserContext[] = [];

async function phone(options: { blockServiceWorkers?: boolean } = {}): Promise<Page> {
  const context = await newFanPhoneContext(browser, api, options);
  contexts.push(context);
  return context.newPage();
}

beforeAll(async () => {
  api = await startFanTestApi();
  browser = await launchFanChromium();
  creator = await onboardFanTestCreator(api, 'Fan app bot');
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

describe('fan app: pages, install and offline shell (built api and app)', () => {
  it('an unknown creator gets a clear page, not a broken chat', async () => {
    const page = await phone();
    await page.goto('/pwa/no-such-creator-here');
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('This creator could not be found');
    expect(await page.getByRole('textbox', { name: 'Message' }).count()).toBe(0);
    await saveFanScreenshot(page, 'unknown-creator');

    await page.goto('/mobile-chat?creator=no-such-creator-here');
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('This creator could not be found');
  });

  it('/fanchat-mobile and /mobile-chat without ?creator= open the chat with the default creator', async () => {
    // No FANCHAT_DEFAULT_CREATOR here: the earliest-created onboarded creator, the only one.
    const bare = await fetch(`${api.url}/fanchat-mobile`, { redirect: 'manual' });
    expect(bare.status).toBe(302);
    expect(bare.headers.get('location')).toBe(`/fanchat-mobile?creator=${creator.username}`);

    const page = await phone();
    await page.goto('/fanchat-mobile');
    expect(new URL(page.url()).search).toBe(`?creator=${creator.username}`);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 10_000 })
      .toBe(creator.chatbotName);
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    await saveFanScreenshot(page, 'default-creator');

    // Under the service worker too, other parameters kept.
    await waitForFanServiceWorker(page);
    await page.goto('/mobile-chat?utm_source=qr');
    expect(new URL(page.url()).search).toBe(`?creator=${creator.username}&utm_source=qr`);
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    expect(await page.getByText('No creator chosen').count()).toBe(0);
  });

  it('the app shell is served for the fan routes with its assets under /fan/', async () => {
    const page = await phone();
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/fan/') && response.status() >= 400) failed.push(response.url());
    });
    const response = await page.goto(`/pwa/${creator.username}`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toMatch(/text\/html/);
    await page.waitForSelector('#root h1');
    const scripts = await page.$$eval('script[src]', (nodes) => nodes.map((n) => n.getAttribute('src')));
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) expect(src).toMatch(/^\/fan\/assets\//);
    expect(failed).toEqual([]);
  });

  it('serves a valid manifest for an onboarded creator, and the page links it', async () => {
    const res = await fetch(`${api.url}/pwa/${creator.username}/manifest.webmanifest`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = (await res.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      scope: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: { src: string; sizes: string; type?: string }[];
    };
    expect(manifest).toMatchObject({
      // The brand set up at onboarding: the chatbot's name (record 0074).
      name: creator.chatbotName,
      start_url: `/pwa/${creator.username}`,
      scope: `/pwa/${creator.username}`,
      display: 'standalone',
    });
    expect(manifest.short_name.length).toBeGreaterThan(0);
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
    // The creator's photo first, resized to the installers' sizes (issue 36 item 9f).
    expect(manifest.icons.find((icon) => icon.sizes === '192x192')?.src).toBe(
      `${creator.profileImageUrl}?size=192`,
    );
    for (const size of ['192x192', '512x512']) {
      const icon = manifest.icons.find((i) => i.sizes === size);
      expect(icon, `an icon of ${size}`).toBeDefined();
      const body = await fetch(`${api.url}${icon?.src}`);
      expect(body.status).toBe(200);
      expect(body.headers.get('content-type')).toBe('image/png');
    }
    const unknown = await fetch(`${api.url}/pwa/no-such-creator-here/manifest.webmanifest`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: 'not_found' });

    const page = await phone();
    await page.goto(`/pwa/${creator.username}`);
    await expect
      .poll(() => page.locator('link[rel="manifest"]').getAttribute('href'))
      .toBe(`/pwa/${creator.username}/manifest.webmanifest`);
  });

  it('the service worker controls the page, from /fan/sw.js with the whole origin as scope', async () => {
    const page = await phone();
    await page.goto(`/pwa/${creator.username}`);
    const worker = await waitForFanServiceWorker(page);
    expect(worker.scriptURL).toBe(`${api.url}/fan/sw.js`);
    expect(worker.scope).toBe(`${api.url}/`);
    const sw = await fetch(`${api.url}/fan/sw.js`);
    expect(sw.headers.get('service-worker-allowed')).toBe('/');
  });

  it('with the context offline, the app shell still opens', async () => {
    const page = await phone();
    await page.goto(`/pwa/${creator.username}`);
    await waitForFanServiceWorker(page);
    await page.context().setOffline(true);
    await page.reload();
    // Our own page, not the browser's offline error.
    await page.waitForSelector('#root h1', { timeout: 15_000 });
    expect(await page.locator('script[src^="/fan/assets/"]').count()).toBeGreaterThan(0);
    await saveFanScreenshot(page, 'offline-shell');

    // Another fan route, never opened before, opens from the same shell.
    const other = await page.context().newPage();
    await other.goto('/fanchat-mobile');
    await expect.poll(() => other.getByRole('heading', { level: 1 }).textContent()).toBe('No creator chosen');
    await page.context().setOffline(false);
  });
});

/**
 * The chat screen itself, with GET /api/public/creators/:username (and, where a test needs it, the
 * chat log and POST /api/ask) answered by the test: the conversations api that serves them is on
 * another branch. The app, its service worker and the api serving them are the real builds. Tests
 * that route page requests block the service worker; those that need it route at context level.
 */
describe('fan chat screen against the api contract (creator profile stubbed)', () => {
  const profile = (overrides: Record<string, unknown> = {}) => ({
    username: creator.username,
    name: creator.name,
    profileImageUrl: creator.profileImageUrl,
    isOnline: false,
    statusText: 'Offline - AI responding',
    notice: null,
    ...overrides,
  });

  async function chatWith(body: Record<string, unknown>, onAsk?: (route: Route) => Promise<void>) {
    const page = await phone({ blockServiceWorkers: true });
    await page.route('**/api/public/creators/*', (route) => route.fulfill({ json: body }));
    if (onAsk) await page.route('**/api/ask', onAsk);
    await page.goto(`/pwa/${creator.username}`);
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    return page;
  }

  it("shows the creator's name, photo and AI status; a broken photo falls back to the default avatar", async () => {
    const page = await chatWith(profile());
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(creator.name);
    await expect.poll(() => page.getByTestId('creator-status').textContent()).toBe('Offline - AI responding');
    const photo = page.getByRole('img', { name: `Photo of ${creator.name}` });
    await expect.poll(() => photo.evaluate((el) => el.tagName.toLowerCase())).toBe('img');
    await expect.poll(() => photo.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await saveFanScreenshot(page, 'chat-offline-creator');

    const broken = await chatWith(
      profile({ profileImageUrl: '/objects/uploads/missing/nothing.png', isOnline: true }),
    );
    await broken.getByTestId('default-avatar').waitFor();
    await expect.poll(() => broken.getByTestId('creator-status').textContent()).toBe('Online');
    await saveFanScreenshot(broken, 'broken-image-fallback');
  });

  it('shows the announcement with safe, clickable links and no injected HTML', async () => {
    const page = await chatWith(
      profile({
        notice: {
          message:
            'Live Q&A tonight: https://example.com/live <img src=x onerror="window.__pwned=1"> javascript:alert(1)',
          timestamp: new Date().toISOString(),
        },
      }),
    );
    const banner = page.getByRole('region', { name: 'Announcement' });
    await banner.waitFor();
    const link = banner.getByRole('link');
    expect(await link.count()).toBe(1);
    expect(await link.getAttribute('href')).toBe('https://example.com/live');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer nofollow ugc');
    expect(await banner.locator('img').count()).toBe(0);
    expect(await banner.textContent()).toContain('<img src=x');
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await saveFanScreenshot(page, 'announcement');
  });

  it('Enter sends once with the fan id and name; Shift+Enter adds a line; empty sends are ignored', async () => {
    const asks: { body: Record<string, unknown>; key: string | undefined }[] = [];
    const page = await chatWith(profile(), async (route) => {
      asks.push({ body: route.request().postDataJSON(), key: route.request().headers()['idempotency-key'] });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.fulfill({ json: { success: true } });
    });
    await page.getByRole('button', { name: 'Add your name' }).click();
    await page.getByRole('textbox', { name: 'Your name (optional)' }).fill('Leo');
    await page.getByRole('button', { name: 'Save' }).click();

    const box = page.getByRole('textbox', { name: 'Message' });
    await box.press('Enter');
    await page.getByRole('button', { name: 'Send message' }).click();
    expect(asks).toHaveLength(0);

    await box.fill('Hello there');
    await box.press('Shift+Enter');
    await box.pressSequentially('second line');
    await box.press('Enter');
    // A second Enter while the first is in flight is ignored.
    await box.press('Enter');
    await expect.poll(() => box.inputValue()).toBe('');
    expect(asks).toHaveLength(1);
    const fanId = await readFanIdFrom(page);
    expect(fanId).toMatch(/^mobile_fan_[a-z0-9]+_\d+_[0-9a-f]{32}$/);
    expect(asks[0]?.body).toEqual({
      creator: creator.username,
      message: 'Hello there\nsecond line',
      fanId,
      fanName: 'Leo',
    });
    expect(asks[0]?.key).toBeTruthy();
    await page.getByTestId('message-sent').waitFor();
    await saveFanScreenshot(page, 'sent');

    await page.reload();
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    expect(await readFanIdFrom(page)).toBe(fanId);
    expect(await page.getByText('Chatting as Leo').count()).toBe(1);
  });

  it('keeps a fan id stored before under fanchat_fan_id, whatever its format, and sends it', async () => {
    const asks: Record<string, unknown>[] = [];
    const page = await phone({ blockServiceWorkers: true });
    await page.addInitScript(() => {
      if (!localStorage.getItem('fanchat_fan_id')) localStorage.setItem('fanchat_fan_id', 'mobile_fan_test');
    });
    await page.route('**/api/public/creators/*', (route) => route.fulfill({ json: profile() }));
    await page.route('**/api/ask', async (route) => {
      asks.push(route.request().postDataJSON());
      await route.fulfill({ json: { success: true } });
    });
    await page.goto(`/pwa/${creator.username}`);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Seeded fan');
    await box.press('Enter');
    await expect.poll(() => asks.length).toBe(1);
    expect(asks[0]?.fanId).toBe('mobile_fan_test');
    expect(await readFanIdFrom(page)).toBe('mobile_fan_test');
  });

  it('a failed send shows the send-failure text and keeps what the fan typed', async () => {
    const page = await chatWith(profile(), (route) =>
      route.fulfill({
        status: 500,
        json: { error: 'internal_error', message: 'Something went wrong on our side.' },
      }),
    );
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Will this arrive?');
    await box.press('Enter');
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('Message failed to send. Please try again.');
    expect(await box.inputValue()).toBe('Will this arrive?');
    await saveFanScreenshot(page, 'send-failed');
  });

  it('a send with no answer while online shows the send-failure text, waits in the outbox and goes out once', async () => {
    const asks: { message: unknown; key: string | undefined }[] = [];
    let answer = false;
    let delivered = 0;
    const page = await chatWith(profile(), async (route) => {
      asks.push({
        message: route.request().postDataJSON().message,
        key: route.request().headers()['idempotency-key'],
      });
      if (answer) {
        delivered++;
        await route.fulfill({ json: { success: true } });
      } else await route.abort('failed');
    });
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Through the tunnel');
    await box.press('Enter');
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('Message failed to send. Please try again.');
    const queued = page.getByTestId('message-queued').filter({ hasText: 'Through the tunnel' });
    await queued.waitFor();
    await saveFanScreenshot(page, 'send-no-answer');
    // Tried (once, or again on a poll while the connection still failed), never delivered.
    expect(asks.length).toBeGreaterThanOrEqual(1);
    expect(delivered).toBe(0);

    // The next history read (every 8 s) flushes the outbox: the same message, the same key.
    answer = true;
    await queued.waitFor({ state: 'detached', timeout: 12_000 });
    await page.getByTestId('message-sent').filter({ hasText: 'Through the tunnel' }).waitFor();
    // Every try is the same message under the same key, and it went out once.
    expect(new Set(asks.map((a) => a.message))).toEqual(new Set(['Through the tunnel']));
    expect(new Set(asks.map((a) => a.key)).size).toBe(1);
    expect(asks.at(-1)?.key).toBeTruthy();
    expect(delivered).toBe(1);
    await expect.poll(() => page.getByRole('alert').count()).toBe(0);
  });

  it('a 429 shows the send-failure text alone, with when to try again apart', async () => {
    const page = await chatWith(profile(), (route) =>
      route.fulfill({
        status: 429,
        headers: { 'retry-after': '30' },
        json: { error: 'rate_limited', message: 'Too many messages.' },
      }),
    );
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Me again');
    await box.press('Enter');
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('Message failed to send. Please try again.');
    expect(await page.getByTestId('send-hint').textContent()).toContain('30 s');
    expect(await box.inputValue()).toBe('Me again');
    await saveFanScreenshot(page, 'send-rate-limited');
  });

  it('attaches a PDF, shows its name and size, and sends it as base64', async () => {
    const asks: Record<string, unknown>[] = [];
    const page = await chatWith(profile(), async (route) => {
      asks.push(route.request().postDataJSON());
      await route.fulfill({ json: { success: true } });
    });
    const pdf = Buffer.from('%PDF-1.4\n% fan test\n'.padEnd(3000, ' '));
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Attach a photo or PDF' }).click();
    await (await chooser).setFiles({ name: 'plan.pdf', mimeType: 'application/pdf', buffer: pdf });
    await page.getByText('plan.pdf').waitFor();
    expect(await page.getByText('2.9 KB').count()).toBe(1);
    await page.getByRole('textbox', { name: 'Message' }).fill('My plan');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect.poll(() => asks.length).toBe(1);
    expect(asks[0]?.attachment).toEqual({ filename: 'plan.pdf', contentBase64: pdf.toString('base64') });
  });

  it('shows the conversation: fan right, replies left, AI and creator labelled, attachments with size; newest in view', async () => {
    const now = Date.now();
    const at = (i: number) => new Date(now - (60 - i) * 60_000).toISOString();
    const filler = Array.from({ length: 30 }, (_, i) => ({
      id: String(100 + i),
      from: i % 2 ? 'Creatorai' : 'fan',
      message: `Earlier message ${i}`,
      created_at: at(i),
    }));
    const messages = [
      ...filler,
      {
        id: '201',
        from: 'fan',
        message: 'Here is my form',
        created_at: at(40),
        fileAttachment: { id: 'f1', fileType: 'pdf', originalFilename: 'form.pdf', fileSize: 20_480 },
      },
      { id: '202', from: 'Creatorai', message: 'Thanks! The AI read it.', created_at: at(41) },
      { id: '203', from: 'creator', message: 'And I did too.', created_at: at(42) },
    ];
    const page = await phone({ blockServiceWorkers: true });
    await page.route('**/api/public/creators/*', (route) => route.fulfill({ json: profile() }));
    await page.route('**/api/chatlog/fan/**', (route) => route.fulfill({ json: { messages } }));
    await page.goto(`/pwa/${creator.username}`);
    const creatorReply = page.getByTestId('message-creator').filter({ hasText: 'And I did too.' });
    await creatorReply.waitFor();
    expect(await creatorReply.textContent()).toContain(creator.name);
    const aiReply = page.getByTestId('message-ai').filter({ hasText: 'Thanks! The AI read it.' });
    expect(await aiReply.textContent()).toContain('AI Coach');
    const withFile = page.getByTestId('message-fan').filter({ hasText: 'Here is my form' });
    expect(await withFile.textContent()).toContain('form.pdf');
    expect(await withFile.textContent()).toContain('(20 KB)');

    // Bubbles: the fan's hug the right edge, replies the left.
    const fanBox = await withFile.locator('.rounded-2xl').boundingBox();
    const replyBox = await creatorReply.locator('.rounded-2xl').boundingBox();
    expect(fanBox && fanBox.x + fanBox.width).toBeGreaterThan(370);
    expect(fanBox?.x).toBeGreaterThan(100);
    expect(replyBox?.x).toBeLessThan(20);
    expect(replyBox && replyBox.x + replyBox.width).toBeLessThan(300);

    // The newest message is in view without scrolling.
    const last = page.getByText('And I did too.');
    await expect.poll(() => last.evaluate((el) => el.getBoundingClientRect().bottom)).toBeLessThan(844 - 80);
    await expect
      .poll(() =>
        page
          .locator('.message-log')
          .evaluate((el) => Math.round(el.scrollHeight - el.scrollTop - el.clientHeight)),
      )
      .toBeLessThanOrEqual(1);
    await saveFanScreenshot(page, 'conversation');
  });

  it('polls the history every 8 s and reloads it 2 s after a successful send', async () => {
    const reads: number[] = [];
    let answeredAt = 0;
    const page = await phone({ blockServiceWorkers: true });
    await page.route('**/api/public/creators/*', (route) => route.fulfill({ json: profile() }));
    await page.route('**/api/chatlog/fan/**', (route) => {
      reads.push(Date.now());
      return route.fulfill({ json: { messages: [] } });
    });
    await page.route('**/api/ask', async (route) => {
      await route.fulfill({ json: { success: true } });
      answeredAt = Date.now();
    });
    await page.goto(`/pwa/${creator.username}`);
    await expect.poll(() => reads.length, { timeout: 12_000 }).toBeGreaterThanOrEqual(2);
    const interval = (reads[1] ?? 0) - (reads[0] ?? 0);
    expect(interval).toBeGreaterThan(7_000);
    expect(interval).toBeLessThan(9_500);

    const before = reads.length;
    await page.getByRole('textbox', { name: 'Message' }).fill('Poll me');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await expect.poll(() => reads.length, { timeout: 5_000 }).toBeGreaterThan(before);
    const after = (reads[before] ?? 0) - answeredAt;
    expect(after).toBeGreaterThan(1_500);
    expect(after).toBeLessThan(3_500);
  });

  it('a message typed offline waits, then is sent exactly once when the connection returns', async () => {
    const asks: { message: unknown; key: string | undefined }[] = [];
    const page = await chatWith(profile(), async (route) => {
      asks.push({
        message: route.request().postDataJSON().message,
        key: route.request().headers()['idempotency-key'],
      });
      await route.fulfill({ json: { success: true } });
    });
    await page.context().setOffline(true);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Typed on the train');
    await box.press('Enter');
    const queued = page.getByTestId('message-queued').filter({ hasText: 'Typed on the train' });
    await queued.waitFor();
    expect(await queued.textContent()).toContain('Waiting for connection');
    expect(await page.getByRole('status').filter({ hasText: 'offline' }).count()).toBe(1);
    await saveFanScreenshot(page, 'queued-stubbed');
    expect(asks).toHaveLength(0);

    await page.context().setOffline(false);
    await queued.waitFor({ state: 'detached', timeout: 10_000 });
    await page.getByTestId('message-sent').filter({ hasText: 'Typed on the train' }).waitFor();
    // The online event, the next poll and the outbox on reload must not send it again.
    await afterResponses(page, (u) => /^\/api\/chatlog\/fan\/[^/]+$/.test(u.pathname), 1);
    await page.reload();
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    await afterResponses(page, (u) => /^\/api\/chatlog\/fan\/[^/]+$/.test(u.pathname), 1);
    expect(asks.map((a) => a.message)).toEqual(['Typed on the train']);
    expect(asks[0]?.key).toBeTruthy();
  });

  it('offline, the service worker shows the last loaded creator and conversation', async () => {
    const context = await newFanPhoneContext(browser, api);
    contexts.push(context);
    // Context routes reach the service worker's own fetches too (Chromium).
    await context.route('**/api/public/creators/*', (route) => route.fulfill({ json: profile() }));
    await context.route('**/api/chatlog/fan/**', (route) =>
      route.fulfill({
        json: {
          messages: [
            {
              id: '1',
              from: 'fan',
              message: 'Loaded before the tunnel',
              created_at: new Date().toISOString(),
            },
            {
              id: '2',
              from: 'Creatorai',
              message: 'Kept for offline reading',
              created_at: new Date().toISOString(),
            },
          ],
        },
      }),
    );
    const page = await context.newPage();
    await page.goto(`/pwa/${creator.username}`);
    await waitForFanServiceWorker(page);
    // Now under the worker's control, this load's reads are kept by it.
    await page.reload();
    await page.getByText('Kept for offline reading').waitFor();

    await context.unrouteAll();
    await context.setOffline(true);
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(creator.name);
    await page.getByTestId('message-fan').filter({ hasText: 'Loaded before the tunnel' }).waitFor();
    await page.getByTestId('message-ai').filter({ hasText: 'Kept for offline reading' }).waitFor();
    await saveFanScreenshot(page, 'offline-last-conversation');
    await context.setOffline(false);
  });

  it('a message queued offline survives a reload and is sent once when back online (page and worker)', async () => {
    const context = await newFanPhoneContext(browser, api);
    contexts.push(context);
    const asks: string[] = [];
    await context.route('**/api/public/creators/*', (route) => route.fulfill({ json: profile() }));
    await context.route('**/api/chatlog/fan/**', (route) => route.fulfill({ json: { messages: [] } }));
    await context.route('**/api/ask', async (route) => {
      asks.push(route.request().headers()['idempotency-key'] ?? '');
      await route.fulfill({ json: { success: true } });
    });
    const page = await context.newPage();
    await page.goto(`/pwa/${creator.username}`);
    await waitForFanServiceWorker(page);
    await page.reload();
    await page.getByRole('textbox', { name: 'Message' }).waitFor();

    await context.setOffline(true);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Queued then reloaded');
    await box.press('Enter');
    await page.getByTestId('message-queued').waitFor();
    await page.reload();
    await page.getByTestId('message-queued').filter({ hasText: 'Queued then reloaded' }).waitFor();
    expect(asks).toHaveLength(0);

    await context.setOffline(false);
    await page.getByTestId('message-queued').waitFor({ state: 'detached', timeout: 15_000 });
    await afterResponses(page, (u) => /^\/api\/chatlog\/fan\/[^/]+$/.test(u.pathname), 1);
    expect(asks).toHaveLength(1);
    expect(asks[0]).not.toBe('');
  });

  it('has no serious accessibility problems (WCAG 2 A/AA: labels, contrast) on the chat and the message pages', async () => {
    const serious = async (page: Page) => {
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
      return results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    };
    const chat = await chatWith(
      profile({
        notice: { message: 'New plan out: https://example.com/plan', timestamp: new Date().toISOString() },
      }),
    );
    expect(await serious(chat)).toEqual([]);

    const missing = await phone();
    await missing.goto('/pwa/no-such-creator-here');
    await missing.getByRole('heading', { level: 1 }).waitFor();
    expect(await serious(missing)).toEqual([]);
  });

  it('keeps the message box in view when the on-screen keyboard shrinks the viewport', async () => {
    const page = await chatWith(profile());
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.focus();
    // A keyboard takes the lower part of the screen: the visual viewport shrinks to 500 px.
    await page.setViewportSize({ width: 390, height: 500 });
    await expect
      .poll(async () => {
        const rect = await box.boundingBox();
        return rect ? rect.y + rect.height : Number.POSITIVE_INFINITY;
      })
      .toBeLessThanOrEqual(500);
  });
});

describe('content security policy', () => {
  it('the fan app above (pages, service worker, manifest, images) ran with no CSP violation', () => {
    expect(fanCspViolations).toEqual([]);
  });
});
