import { mkdirSync } from 'node:fs';
import { type LoopbackServer, startSite } from '@fanpilot/testkit';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  creatorCall,
  type FanTestApi,
  type FanTestCreator,
  fanTestCreatorApi,
  launchFanChromium,
  newFanPhoneContext,
  onboardFanTestCreator,
  startFanTestApi,
} from './fan-helpers.ts';
import { screenshotDir } from './helpers/browser.ts';

/**
 * A creator's first week, in Chromium against the built api and fan app (issue 36, items 1, 5, 6;
 * record 0073). One creator, in the order a week brings it:
 * 1. a crawled site's page is cited by its own title and address, once (the chip; the answer's text
 *    carries no second copy of it);
 * 2. today's AI budget reached while a fan has asked (so the notification offer is up) and an
 *    announcement is out: the announcement and "{creator} will answer personally" both show, the
 *    offer below them, and the status line never says "Offline - AI responding";
 * 3. the chatbot deleted: the fan reads that the creator answers, and a new question waits for them.
 * Screens are saved at 390 x 844 and 1280 x 800 to the e2e results folder (tests/e2e/test-results)/h4-*.png.
 */
/** Where the screens are saved: the e2e results folder (git-ignored), or SHOTS_DIR. */
const SHOTS = process.env.SHOTS_DIR ?? screenshotDir;
const NAME_RE = /will answer personally\./;

const sitePage = (title: string, text: string, links = '') =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><nav>${links}</nav><main><article><h1>${title}</h1><p>${text}</p></article></main></body></html>`;

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/h4-${name}-390x844.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${SHOTS}/h4-${name}-1280x800.png` });
  await page.setViewportSize({ width: 390, height: 844 });
}

/** Waits (polling, with a deadline) until `check` holds. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("fan app: a creator's first week (issue 36)", () => {
  let api: FanTestApi;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let creator: FanTestCreator;
  let site: LoopbackServer;
  let chatbotId: string;

  const call = async (method: string, path: string, body?: unknown) =>
    (await creatorCall(api, creator, method, path, body)) as Record<string, unknown>;
  const card = async () =>
    (await (await fetch(`${api.url}/api/public/creators/${creator.username}`)).json()) as {
      aiAvailable: boolean;
      statusText: string;
    };
  const status = () => page.getByTestId('creator-status').textContent();
  const ask = async (text: string) => {
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill(text);
    await box.press('Enter');
  };

  beforeAll(async () => {
    site = await startSite({
      '/index.html': {
        body: sitePage(
          'Ana Coaching',
          'Welcome to Ana Coaching, where runners of every level train for their first marathon together.',
          '<a href="/nutrition.html">Nutrition</a> <a href="/training.html">Training</a>',
        ),
      },
      '/nutrition.html': {
        body: sitePage(
          'Nutrition for runners',
          'Before a long run, eat a bowl of oats with a banana two hours ahead of the start.',
          '<a href="/index.html">Home</a>',
        ),
      },
      '/training.html': {
        body: sitePage(
          'Training plan',
          'The plan has three easy sessions each week, and Sunday is always a full day of rest.',
          '<a href="/index.html">Home</a>',
        ),
      },
    });
    // No model key: the embedded answerer quotes the creator's material.
    api = await startFanTestApi({ INGEST_ALLOWED_PRIVATE_HOSTS: '127.0.0.1,localhost' });
    browser = await launchFanChromium();
    creator = await onboardFanTestCreator(api, 'Week bot');
    const bot = await call('GET', `/api/creators/username/${creator.username}/chatbot`);
    chatbotId = String(bot.id);
    await call('POST', '/api/add-knowledge', { chatbotId, url: `http://localhost:${site.port}/index.html` });
    await until(async () => {
      const progress = await call('GET', `/api/chatbots/${chatbotId}/knowledge/progress`);
      if (Number(progress.failed) > 0) throw new Error(`the site failed: ${JSON.stringify(progress)}`);
      return progress.pending === 0;
    }, 'the site is read');
    context = await newFanPhoneContext(browser, api);
    page = await context.newPage();
  }, 150_000);

  afterAll(async () => {
    await context?.close().catch(() => {});
    await browser?.close();
    await api?.stop();
    await site?.close();
  });

  it("cites a crawled page by that page's title and address, once (item 6)", async () => {
    await page.goto(`/pwa/${creator.username}`);
    await ask('What should I eat before a long run?');
    const answer = page.getByTestId('message-ai');
    await answer.waitFor({ timeout: 30_000 });
    const chips = answer.getByRole('list', { name: 'Sources' }).getByTestId('citation');
    await chips.first().waitFor();
    const found = await chips.evaluateAll((els) =>
      els.map((a) => ({ text: a.textContent ?? '', href: a.getAttribute('href') ?? '' })),
    );
    expect(found).toHaveLength(1);
    expect(found[0]!.text).toBe('Nutrition for runners');
    expect(found[0]!.href).toMatch(
      new RegExp(`^http://localhost:${site.port}/nutrition\\.html#:~:text=Before%20a%20long%20run`),
    );
    // The answer's text quotes the page; the page's name is not said a second time in it.
    const text = (await answer.locator('p').first().textContent()) ?? '';
    expect(text).toContain('Before a long run, eat a bowl of oats');
    expect(text).not.toMatch(/Nutrition|Ana Coaching|pages\)|— from/);
    expect(await page.getByText(/\(3 pages\)/).count()).toBe(0);
    await shoot(page, 'citation-page-title');
  });

  it('budget reached while the offer is up: the announcement and the hand-over notice both show, the offer below them (item 1)', async () => {
    const creatorApi = fanTestCreatorApi(api, creator);
    await creatorApi.setNotice('Live Q&A on Friday at 6 pm.');
    // The one answer given today used the whole budget: the AI answers no more today.
    await call('PUT', `/api/chatbots/${chatbotId}/settings`, {
      name: 'Week bot',
      instructions: '',
      model: 'gpt-4o-mini',
      temp: '0.7',
      dailyAiBudget: 1,
    });
    expect(await card()).toMatchObject({ aiAvailable: false, statusText: 'Offline - Creator will answer' });
    await page.reload();
    const announcement = page.getByRole('region', { name: 'Announcement' });
    const personal = page.getByTestId('answers-personally');
    const offer = page.getByRole('region', { name: 'Notifications' });
    await announcement.getByText('Live Q&A on Friday at 6 pm.').waitFor({ timeout: 20_000 });
    await personal.getByText(NAME_RE).waitFor();
    await offer.getByText(/^Tell me when .+ answers$/).waitFor();
    // Information first, the offer below it.
    const top = async (l: typeof offer) => (await l.boundingBox())?.y ?? Number.NaN;
    expect(await top(personal)).toBeLessThan(await top(announcement));
    expect(await top(announcement)).toBeLessThan(await top(offer));
    await expect.poll(status).toBe('Offline - Creator will answer');

    // A question asked now waits for the creator, and says so, after a reload too.
    await ask('Can I run the day after a race?');
    const question = page.getByTestId('message-fan').filter({ hasText: 'Can I run the day after a race?' });
    await question.getByText(NAME_RE).waitFor({ timeout: 20_000 });
    await page.reload();
    await question.getByText(NAME_RE).waitFor({ timeout: 20_000 });
    await announcement.waitFor();
    await personal.waitFor();
    await offer.waitFor();
    expect(await page.getByText('Offline - AI responding').count()).toBe(0);
    await shoot(page, 'budget-reached-announcement-and-offer');
  });

  it('a deleted chatbot: the fan reads that the creator answers personally, and questions wait for them (item 5)', async () => {
    await call('DELETE', `/api/chatbots/${chatbotId}`);
    expect(await card()).toMatchObject({ aiAvailable: false, statusText: 'Offline - Creator will answer' });
    await page.reload();
    await page.getByTestId('answers-personally').getByText(NAME_RE).waitFor({ timeout: 20_000 });
    await expect.poll(status).toBe('Offline - Creator will answer');
    await ask('Do you coach trail runners too?');
    const question = page.getByTestId('message-fan').filter({ hasText: 'Do you coach trail runners too?' });
    await question.getByText(NAME_RE).waitFor({ timeout: 20_000 });
    // It waits: pending on the creator's side, and no AI answer to it.
    const messages = await fanTestCreatorApi(api, creator).messages();
    const asked = messages.find((m) => m.message === 'Do you coach trail runners too?');
    expect(asked?.status).toBe('pending');
    expect(messages.filter((m) => m.from === 'Creatorai')).toHaveLength(1);
    expect(await page.getByText('Offline - AI responding').count()).toBe(0);
    await shoot(page, 'chatbot-deleted');
  });
});
