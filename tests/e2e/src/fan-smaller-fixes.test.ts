import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAN_PHONE_VIEWPORT,
  type FanTestApi,
  type FanTestCreator,
  launchFanChromium,
  onboardFanTestCreator,
  saveFanScreenshot,
  startFanTestApi,
} from './fan-helpers.ts';

/**
 * Issue 36 item 9, the fan app's side, in Chromium at 390×844: the iPhone's install hint (Share →
 * Add to Home Screen, where there is no install prompt), and a restore link pasted into the open tab.
 */

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

describe("fan app: a creator's first week", () => {
  let api: FanTestApi;
  let browser: Browser;
  let creator: FanTestCreator;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    api = await startFanTestApi();
    browser = await launchFanChromium();
    creator = await onboardFanTestCreator(api, 'First week bot');
  }, 120_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await api?.stop();
  });

  const phone = async (userAgent?: string) => {
    const context = await browser.newContext({
      baseURL: api.url,
      viewport: FAN_PHONE_VIEWPORT,
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      ...(userAgent ? { userAgent } : {}),
    });
    contexts.push(context);
    return context;
  };

  it('on an iPhone, Install app shows how: Share, then Add to Home Screen; not once installed', async () => {
    const iphone = await (await phone(IPHONE_SAFARI)).newPage();
    await iphone.goto(`/pwa/${creator.username}`);
    await iphone.getByRole('textbox', { name: 'Message' }).waitFor();
    const install = iphone.getByRole('banner').getByRole('button', { name: 'Install app' });
    await install.click();
    const hint = iphone.getByRole('region', { name: 'Add this chat to your Home Screen' });
    expect((await hint.textContent())?.replace(/\s+/g, ' ')).toContain(
      'Tap Share in the browser’s toolbar, then choose “Add to Home Screen”.',
    );
    const box = await hint.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(FAN_PHONE_VIEWPORT.width);
    await saveFanScreenshot(iphone, 'h6-ios-install-hint');
    await hint.getByRole('button', { name: 'Got it' }).click();
    await hint.waitFor({ state: 'detached' });

    // Opened from the Home Screen (standalone), there is nothing to install.
    const installed = await phone(IPHONE_SAFARI);
    await installed.addInitScript(() => {
      Object.defineProperty(navigator, 'standalone', { get: () => true });
    });
    const app = await installed.newPage();
    await app.goto(`/pwa/${creator.username}`);
    await app.getByRole('textbox', { name: 'Message' }).waitFor();
    expect(await app.getByRole('button', { name: 'Install app' }).count()).toBe(0);

    // Chromium on Android waits for beforeinstallprompt: no hint.
    const android = await (await phone()).newPage();
    await android.goto(`/pwa/${creator.username}`);
    await android.getByRole('textbox', { name: 'Message' }).waitFor();
    expect(await android.getByRole('button', { name: 'Install app' }).count()).toBe(0);
  });

  it("the header shows the creator's picture resized for the avatar, not the whole upload", async () => {
    const page = await (await phone()).newPage();
    const served: { url: string; bytes: number; type: string | null }[] = [];
    page.on('response', async (response) => {
      if (new URL(response.url()).pathname.startsWith('/objects/')) {
        served.push({
          url: response.url(),
          bytes: (await response.body().catch(() => Buffer.alloc(0))).length,
          type: response.headers()['content-type'] ?? null,
        });
      }
    });
    await page.goto(`/pwa/${creator.username}`);
    // The header wears the brand the creator set up: the chatbot's name (record 0074).
    const photo = page.getByRole('banner').getByRole('img', { name: 'Photo of First week bot' });
    // Polled up to 10 s: on a busy machine the picture can take longer than expect.poll's default second.
    await expect
      .poll(() => photo.evaluate((el) => (el as HTMLImageElement).naturalWidth), { timeout: 10_000 })
      .toBe(96);
    expect(await photo.getAttribute('src')).toBe(`${creator.profileImageUrl}?size=96`);
    await expect.poll(() => served.length).toBeGreaterThan(0);
    expect(served.every((s) => s.url.endsWith('?size=96') && s.type === 'image/webp')).toBe(true);
  });

  it('a restore link pasted into the open chat tab is used at once, without a reload', async () => {
    const page = await (await phone()).newPage();
    await page.goto(`/pwa/${creator.username}`);
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    // A marker that a reload would wipe.
    await page.evaluate(() => {
      (window as unknown as { keptAcrossHashChange: boolean }).keptAcrossHashChange = true;
    });
    const redeemed = page.waitForRequest((r) => r.url().includes('/restore') && r.method() === 'POST');
    // Pasting the link (same page, new fragment) is a fragment navigation: hashchange, no load.
    await page.evaluate(() => {
      window.location.hash = '#restore=rst_pasted_into_the_open_tab';
    });
    const request = await redeemed;
    expect(request.postData() ?? '').toContain('rst_pasted_into_the_open_tab');
    await page.getByRole('heading', { name: 'This link did not work' }).waitFor();
    expect(
      await page.evaluate(
        () => (window as unknown as { keptAcrossHashChange?: boolean }).keptAcrossHashChange,
      ),
    ).toBe(true);
    // The token leaves the address at once.
    expect(new URL(page.url()).hash).toBe('');
    await saveFanScreenshot(page, 'h6-restore-link-pasted');
  });
});
