import { type FakeOpenAI, startFakeOpenAI } from '@fanpilot/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDesktop, screenshot, signUpInBrowser } from './helpers/browser.ts';
import { type RunningApi, startApi } from './helpers/server.ts';

/**
 * Issue 37, per-fan memory in Chromium, with the model stand-in: a fan shares facts in the chat,
 * opens "What {creator}'s assistant remembers about you" on a phone (390×844) and deletes one; the
 * creator sees the memory beside the conversation (1280×800). Screens: h2n-memory-*.
 */

const USERNAME = 'creator';
const SLOW = 180_000;
const EXTRACTION = 'You keep a short memory of a fan';

async function until<T>(check: () => Promise<T | null | false | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

describe('per-fan memory screens', () => {
  let openai: FakeOpenAI;
  let api: RunningApi;
  let page: Page;
  let close: () => Promise<void>;

  beforeAll(async () => {
    openai = await startFakeOpenAI();
    openai.answerWith((r) => {
      if (!String(r.messages[0]?.content ?? '').includes(EXTRACTION)) {
        return 'Three easy runs a week suit you; keep the long run gentle on the knee.';
      }
      return JSON.stringify({
        facts: [
          { text: 'Goes by Rita.', message: 1 },
          { text: 'Trains for a first marathon in May.', message: 1 },
          { text: 'Has a sore left knee.', message: 1 },
          { text: 'Can run at most 4 hours a week.', message: 1 },
        ],
      });
    });
    api = await startApi({
      env: {
        REDIS_URL: undefined,
        OPENAI_API_KEY: 'sk-e2e',
        OPENAI_BASE_URL: openai.baseUrl,
        STRIPE_SECRET_KEY: undefined,
      },
    });
    const desktop = await openDesktop(api.origin);
    page = desktop.page;
    close = desktop.close;
  }, SLOW);
  afterAll(async () => {
    await close?.();
    await api?.stop();
    await openai?.close();
  });

  it(
    'the fan sees and deletes what is remembered on a phone; the creator sees it beside the conversation',
    async () => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await signUpInBrowser(page, api.origin, USERNAME, 'Coach Maya');

      const fanPage = await page.context().newPage();
      await fanPage.setViewportSize({ width: 390, height: 844 });
      await fanPage.goto(`/pwa/${USERNAME}`);
      const box = fanPage.getByRole('textbox', { name: 'Message' });
      await box.fill(
        "Call me Rita. I'm training for my first marathon in May, my left knee is sore and I have 4 hours a week. How often should I run?",
      );
      await fanPage.getByRole('button', { name: 'Send message' }).click();
      await fanPage.getByText('Three easy runs a week suit you').waitFor({ timeout: 30_000 });
      const fanId = await fanPage.evaluate(() => localStorage.getItem('fanchat_fan_id'));
      expect(fanId).toBeTruthy();
      await until(async () => {
        const memory = (await (
          await fanPage.request.get(`/api/chatlog/fan/${fanId}/memory?creator=${USERNAME}`)
        ).json()) as { items: unknown[] };
        return memory.items.length === 4;
      });

      await fanPage.getByTestId('open-memory').click();
      const panel = fanPage.getByTestId('memory-panel');
      await panel.waitFor();
      await panel.getByText('Has a sore left knee.').waitFor();
      expect(await panel.getByRole('heading').textContent()).toMatch(
        /^What .+'s assistant remembers about you$/,
      );
      await screenshot(fanPage, 'h2n-memory-fan-390x844');
      await panel.getByRole('button', { name: 'Delete "Can run at most 4 hours a week."' }).click();
      await panel.getByText('Can run at most 4 hours a week.').waitFor({ state: 'detached' });
      expect(await panel.getByRole('listitem').count()).toBe(3);

      await page.getByRole('complementary').getByRole('button', { name: 'Chat Management' }).click();
      const row = page.getByRole('list', { name: 'Fan conversations' }).getByRole('article').first();
      await row.waitFor({ timeout: 20_000 });
      await row.getByRole('button', { name: 'Chat', exact: true }).click();
      const memoryPanel = page.getByTestId('fan-memory-panel');
      await memoryPanel.getByText('Trains for a first marathon in May.').waitFor();
      await memoryPanel.scrollIntoViewIfNeeded();
      await screenshot(page, 'h2n-memory-creator-1280x800');
      expect(await memoryPanel.getByText('Can run at most 4 hours a week.').count()).toBe(0);
    },
    SLOW,
  );
});
