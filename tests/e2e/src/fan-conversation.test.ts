import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type FanFakeAi,
  type FanTestApi,
  type FanTestCreator,
  fanTestCreatorApi,
  launchFanChromium,
  newFanPhoneContext,
  onboardFanTestCreator,
  openFanChat,
  saveFanScreenshot,
  startFanFakeAi,
  startFanTestApi,
  waitForFanServiceWorker,
} from './fan-helpers.ts';
import { afterResponses } from './helpers/browser.ts';

/**
 * The fan's conversation end to end: the built app and api, Chromium as a 390 x 844 phone, the AI a
 * loopback OpenAI-style server.
 */
describe('fan conversation with the conversations api', () => {
  let api: FanTestApi;
  let ai: FanFakeAi;
  let browser: Browser;
  let creator: FanTestCreator;
  let dashboard: ReturnType<typeof fanTestCreatorApi>;
  const contexts: BrowserContext[] = [];

  const openChat = (options: { blockServiceWorkers?: boolean } = {}): Promise<Page> =>
    openFanChat(browser, api, creator.username, contexts, options);

  async function send(page: Page, text: string) {
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill(text);
    await box.press('Enter');
    await expect.poll(() => box.inputValue()).toBe('');
  }

  beforeAll(async () => {
    ai = await startFanFakeAi('Stretch for ten minutes before every run.');
    api = await startFanTestApi({ OPENAI_API_KEY: 'fan-e2e-key', OPENAI_BASE_URL: ai.baseUrl });
    browser = await launchFanChromium();
    creator = await onboardFanTestCreator(api, 'Coach bot');
    dashboard = fanTestCreatorApi(api, creator);
  });

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await ai?.stop();
  });

  it('a question to an Offline creator gets an AI answer, labelled as the AI', async () => {
    await dashboard.setOnline(false);
    const page = await openChat();
    await expect.poll(() => page.getByTestId('creator-status').textContent()).toBe('Offline - AI responding');
    await send(page, 'How should I warm up?');
    const answer = page.getByTestId('message-ai').filter({ hasText: ai.answer });
    await answer.waitFor({ timeout: 20_000 });
    expect(await answer.textContent()).toContain('AI Coach');
    expect(await page.getByTestId('message-fan').filter({ hasText: 'How should I warm up?' }).count()).toBe(
      1,
    );
    await saveFanScreenshot(page, 'ai-answer');
  });

  it("an Online creator's answer from the api appears on the next poll", async () => {
    await dashboard.setOnline(true);
    const page = await openChat();
    await expect
      .poll(() => page.getByTestId('creator-status').textContent(), { timeout: 12_000 })
      .toBe('Online');
    await send(page, 'Can you check my plan?');
    let questionId: string | undefined;
    await expect
      .poll(
        async () => {
          const all = await dashboard.messages();
          questionId = all.find((m) => m.from === 'fan' && m.message === 'Can you check my plan?')?.id;
          return questionId;
        },
        { timeout: 10_000 },
      )
      .toBeDefined();
    await dashboard.answer(String(questionId), 'Looks great, add one rest day.');
    const reply = page.getByTestId('message-creator').filter({ hasText: 'Looks great, add one rest day.' });
    // The chat polls every 8 seconds.
    await reply.waitFor({ timeout: 12_000 });
    expect(await reply.textContent()).toContain(creator.name);
    await saveFanScreenshot(page, 'creator-answer');
    await dashboard.setOnline(false);
  });

  it("the creator's announcement shows, its link safe and clickable", async () => {
    await dashboard.setNotice('Live Q&A tonight: https://example.com/live');
    const page = await openChat();
    const banner = page.getByRole('region', { name: 'Announcement' });
    await banner.waitFor({ timeout: 12_000 });
    const link = banner.getByRole('link', { name: 'https://example.com/live' });
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer nofollow ugc');
    expect(await link.getAttribute('target')).toBe('_blank');
    await saveFanScreenshot(page, 'announcement-live');
  });

  it('offline, the last conversation still shows and a message typed then is delivered once when back', async () => {
    const page = await openChat();
    await waitForFanServiceWorker(page);
    await send(page, 'Before going offline');
    await page
      .getByTestId('message-fan')
      .filter({ hasText: 'Before going offline' })
      .waitFor({ timeout: 15_000 });

    await page.context().setOffline(true);
    await page.reload();
    await page.getByTestId('message-fan').filter({ hasText: 'Before going offline' }).waitFor();
    await send(page, 'Sent while offline');
    await page.getByTestId('message-queued').filter({ hasText: 'Sent while offline' }).waitFor();
    await saveFanScreenshot(page, 'queued-offline');

    await page.context().setOffline(false);
    await page.getByTestId('message-queued').waitFor({ state: 'detached', timeout: 20_000 });
    await page
      .getByTestId('message-fan')
      .filter({ hasText: 'Sent while offline' })
      .waitFor({ timeout: 20_000 });
    // Two more polls, then count: the server and the page each have it exactly once.
    await afterResponses(page, (u) => /^\/api\/chatlog\/fan\/[^/]+$/.test(u.pathname), 2);
    const copies = (await dashboard.messages()).filter((m) => m.message === 'Sent while offline');
    expect(copies).toHaveLength(1);
    expect(await page.getByText('Sent while offline', { exact: true }).count()).toBe(1);
    await saveFanScreenshot(page, 'queued-delivered');
  });

  it('a creator photo that fails to load falls back to the default avatar', async () => {
    const context = await newFanPhoneContext(browser, api, { blockServiceWorkers: true });
    contexts.push(context);
    await context.route('**/objects/**', (route) => route.abort('failed'));
    const page = await context.newPage();
    await page.goto(`/pwa/${creator.username}`);
    await page.getByTestId('default-avatar').waitFor();
    await saveFanScreenshot(page, 'broken-photo-live');
  });
});
