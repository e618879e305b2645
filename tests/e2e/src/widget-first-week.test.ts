import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type FakeOpenAI, startFakeOpenAI } from '@fanpilot/testkit';
import { type BrowserContext, chromium, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  creatorCall,
  type FanTestApi,
  type FanTestCreator,
  fanFreePort,
  onboardFanTestCreator,
  startFanTestApi,
} from './fan-helpers.ts';
import { screenshotDir } from './helpers/browser.ts';

/**
 * The website widget's first-week fixes (issue 36 item 7), in Chromium blocking third-party cookies,
 * a creator's site on another site than the product's: the frame wears the creator's colour, a
 * streamed answer is never above its question, the phone's close button covers nothing, a site
 * removed mid-chat is said in the api's words; the dashboard offers the snippet only once a site is
 * allowed and says where the widget was refused.
 */
/** Where the screens are saved: the e2e results folder (git-ignored), or SHOTS_DIR. */
const SHOTS = process.env.SHOTS_DIR ?? screenshotDir;
const COLOR = '#be185d';
const COLOR_RGB = 'rgb(190, 24, 93)';

describe('website widget, first-week fixes (built api, widget and dashboard)', () => {
  let api: FanTestApi;
  let openai: FakeOpenAI;
  let creator: FanTestCreator;
  let site: Server;
  let siteOrigin: string;
  const profileDirs: string[] = [];

  const saveWidget = (sites: string[]) =>
    creatorCall(api, creator, 'PUT', `/api/creators/username/${creator.username}/widget`, {
      sites,
      color: COLOR,
      position: 'right',
      launcherText: 'Ask Cara',
    });

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    openai = await startFakeOpenAI();
    openai.answerWith(() => 'The studio opens at nine every morning and closes at six, except on Sundays.');
    openai.streamWordsEvery(150);
    api = await startFanTestApi({ OPENAI_API_KEY: 'sk-widget', OPENAI_BASE_URL: openai.baseUrl });
    creator = await onboardFanTestCreator(api, 'Cara bot');
    const port = await fanFreePort();
    siteOrigin = `http://localhost:${port}`;
    const snippet = `<script src="${api.url}/widget.js" data-creator="${creator.username}" async></script>`;
    site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Cara's music</title></head><body><h1>Cara's music</h1>${snippet}</body></html>`,
      );
    });
    await new Promise<void>((resolve) => site.listen(port, '127.0.0.1', resolve));
    await saveWidget([siteOrigin]);
  });

  afterAll(async () => {
    for (const dir of profileDirs) rmSync(dir, { recursive: true, force: true });
    site?.closeAllConnections();
    await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
    await api?.stop();
    await openai?.close();
  });

  /** A browser blocking third-party cookies (its own setting and the phase-out switch). */
  const blockedContext = (viewport: { width: number; height: number }): Promise<BrowserContext> => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fanpilot-widget-week-'));
    profileDirs.push(dir);
    mkdirSync(path.join(dir, 'Default'), { recursive: true });
    writeFileSync(
      path.join(dir, 'Default', 'Preferences'),
      JSON.stringify({ profile: { cookie_controls_mode: 1, block_third_party_cookies: true } }),
    );
    return chromium.launchPersistentContext(dir, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--test-third-party-cookie-phaseout'],
      viewport,
    });
  };

  const launcher = (page: Page) => page.locator('[data-fanpilot-widget] button.launcher');
  const chatFrame = (page: Page) => page.frameLocator('[data-fanpilot-widget] iframe');
  const frameOf = (page: Page): Frame => page.frames().find((f) => f.url().startsWith(`${api.url}/widget/`))!;

  /** The widget opened on the creator's site, its chat ready. */
  async function openWidget(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    await page.goto(siteOrigin);
    await launcher(page).click();
    await chatFrame(page).getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 20_000 });
    return page;
  }

  describe.each([
    { name: 'desktop', viewport: { width: 1280, height: 800 } },
    { name: 'phone', viewport: { width: 390, height: 844 } },
  ])('in the widget at $viewport.width px', ({ name, viewport }) => {
    let context: BrowserContext;
    beforeAll(async () => {
      context = await blockedContext(viewport);
    });
    afterAll(async () => {
      await context?.close();
    });

    it("wears the creator's colour, shows the streamed answer under its question, and the close button covers nothing", async () => {
      const page = await openWidget(context);
      const frame = chatFrame(page);
      // The creator's colour in the frame (the brand tokens): the send button and the header.
      const send = frame.getByRole('button', { name: 'Send message' });
      expect(await send.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(COLOR_RGB);
      expect(
        await frame
          .locator('header')
          .first()
          .evaluate((el) => getComputedStyle(el).borderTopColor),
      ).toBe(COLOR_RGB);

      // Every moment of the answer being written is watched: its bubble is never above its question.
      const question = `When does the studio open? (${name})`;
      await frameOf(page).evaluate((q) => {
        const w = window as unknown as { flips: number; drafts: number };
        w.flips = 0;
        w.drafts = 0;
        new MutationObserver(() => {
          const draft = document.querySelector('[aria-busy="true"]');
          if (!draft) return;
          w.drafts++;
          const asked = [...document.querySelectorAll('p, div, span')].find(
            (el) => el.childElementCount === 0 && el.textContent === q,
          );
          if (asked && draft.compareDocumentPosition(asked) & Node.DOCUMENT_POSITION_FOLLOWING) w.flips++;
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      }, question);
      await frame.getByRole('textbox', { name: 'Message' }).fill(question);
      await send.click();
      await frame.getByText('Writing…').waitFor({ timeout: 20_000 });
      await page.screenshot({ path: path.join(SHOTS, `h3-widget-streaming-${name}.png`) });
      await frame.getByText('except on Sundays.').waitFor({ timeout: 20_000 });
      await expect.poll(() => frame.getByText('Writing…').count(), { timeout: 20_000 }).toBe(0);
      const watched = await frameOf(page).evaluate(() => {
        const w = window as unknown as { flips: number; drafts: number };
        return { flips: w.flips, drafts: w.drafts };
      });
      expect(watched.drafts).toBeGreaterThan(0);
      expect(watched.flips).toBe(0);
      // The launcher (now the close button) and "Continue in the app" do not overlap.
      // (The chat offers it once it has a conversation.)
      const close = (await launcher(page).boundingBox())!;
      const carryOn = (await frame
        .getByRole('button', { name: 'Continue in the app' })
        .boundingBox({ timeout: 20_000 }))!;
      const overlap =
        close.x < carryOn.x + carryOn.width &&
        carryOn.x < close.x + close.width &&
        close.y < carryOn.y + carryOn.height &&
        carryOn.y < close.y + close.height;
      expect(overlap).toBe(false);

      await page.screenshot({ path: path.join(SHOTS, `h3-widget-colour-${name}.png`) });
      await page.close();
    });

    it('when the creator removes the site mid-chat, the fan reads why instead of "try again"', async () => {
      const page = await openWidget(context);
      const frame = chatFrame(page);
      await saveWidget([]);
      try {
        await frame.getByRole('textbox', { name: 'Message' }).fill('Are you still there?');
        await frame.getByRole('button', { name: 'Send message' }).click();
        await frame
          .getByText(
            `This chat is not enabled on ${siteOrigin}. The creator can add the site in Profile Settings.`,
          )
          .waitFor({ timeout: 20_000 });
        expect(await frame.getByText('Message failed to send. Please try again.').count()).toBe(0);
        await page.screenshot({ path: path.join(SHOTS, `h3-widget-site-removed-${name}.png`) });
      } finally {
        await saveWidget([siteOrigin]);
        await page.close();
      }
    });
  });

  // Profile Settings is a desktop section (on a phone the dashboard's menu has no such section).
  it('Profile Settings offers the snippet only once a site is allowed, and says where the widget was refused', async () => {
    await saveWidget([]);
    const visitor = await blockedContext({ width: 1280, height: 800 });
    try {
      // The snippet on a site the creator did not list: the page shows nothing but a console line.
      const page = await visitor.newPage();
      const warned = page.waitForEvent('console', {
        predicate: (m) => m.text().startsWith('Fanpilot widget:'),
        timeout: 20_000,
      });
      await page.goto(siteOrigin);
      await warned;
      expect(await page.locator('[data-fanpilot-widget]').count()).toBe(0);
    } finally {
      await visitor.close();
    }

    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    try {
      const desk = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: api.url });
      const session = /fp_session=([^;]+)/.exec(creator.cookie)?.[1] ?? '';
      await desk.addCookies([{ name: 'fp_session', value: session, url: api.url }]);
      const page = await desk.newPage();
      await page.goto(`/dashboard/${creator.username}`);
      await page.getByRole('complementary').getByRole('button', { name: 'Profile Settings' }).click();
      const card = page.locator('section', {
        has: page.getByRole('heading', { name: 'Chat on your website' }),
      });
      await card.waitFor({ timeout: 20_000 });
      await card.getByLabel('Sites allowed to show your chat').waitFor();
      // No site allowed: no snippet, but what to do first; and where the widget was refused.
      expect(await card.getByLabel('Snippet for your website').count()).toBe(0);
      expect(await card.getByRole('button', { name: 'Copy snippet' }).count()).toBe(0);
      await card.getByText('the snippet to paste appears here then').waitFor();
      await card.getByText(`Your widget was refused on ${siteOrigin} — add it to allowed sites`).waitFor();
      await card.scrollIntoViewIfNeeded();
      await card.screenshot({ path: path.join(SHOTS, 'h3-dashboard-refused-no-snippet.png') });

      // The site added and saved: the snippet is offered, the refusal is gone.
      await card.getByLabel('Sites allowed to show your chat').fill(siteOrigin);
      await card.getByRole('button', { name: 'Save widget' }).click();
      await card.getByLabel('Snippet for your website').waitFor({ timeout: 20_000 });
      expect(await card.getByLabel('Snippet for your website').inputValue()).toBe(
        `<script src="${api.url}/widget.js" data-creator="${creator.username}" async></script>`,
      );
      expect(await card.getByText(/Your widget was refused on/).count()).toBe(0);
      await card.screenshot({ path: path.join(SHOTS, 'h3-dashboard-snippet-after-site.png') });
    } finally {
      await browser.close();
    }
  });
});
