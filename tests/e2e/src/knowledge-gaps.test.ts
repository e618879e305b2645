import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, signUpInBrowser } from './helpers/browser.ts';
import { askAsFan, type DashboardRig, startDashboardRig } from './helpers/dashboard.ts';
import type { RunningApi } from './helpers/server.ts';

/**
 * The "Questions your content doesn't answer" card in Chromium against the built api on embedded
 * defaults (no model key: the AI quotes the creator's material, or says it found nothing): a
 * question the AI could not ground appears in the card; the creator answers it there, the answer
 * becomes a knowledge note, and the same question is then answered from that note.
 */

const USERNAME = 'creator';
const SLOW = 120_000;

let api: RunningApi;
let rig: DashboardRig;
let page: Page;

const ask = (message: string) => askAsFan(api.origin, USERNAME, message);

async function chatOf(fan: { fanId: string; cookie: string }) {
  const r = await fetch(`${api.origin}/api/chatlog/fan/${fan.fanId}?creator=${USERNAME}`, {
    headers: { cookie: fan.cookie },
  });
  expect(r.status).toBe(200);
  return ((await r.json()) as { messages: { from: string; message: string }[] }).messages;
}

async function until<T>(check: () => Promise<T | null | false | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const gaps = async () => {
  const response = await page.request.get(`/api/creators/username/${USERNAME}/knowledge-gaps`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { gaps: { question: string }[] }).gaps;
};

beforeAll(async () => {
  rig = await startDashboardRig();
  ({ api, page } = rig);
}, SLOW);

afterAll(async () => {
  await rig?.stop();
});

describe("questions your content doesn't answer", () => {
  it(
    'shows an ungrounded question, and answering it there teaches the AI',
    async () => {
      await signUpInBrowser(page, api.origin, USERNAME, 'Coach Gaps');
      const card = page.locator('section', { hasText: "Questions your content doesn't answer" });

      // A long address in the knowledge list never widens a phone-sized page.
      const bot = (await (await page.request.get(`/api/creators/username/${USERNAME}/chatbot`)).json()) as {
        id: string;
      };
      const long = `https://www.youtube.com/watch?v=abcdefghijk&list=${'PL'.repeat(120)}&index=1`;
      expect(
        (await page.request.post('/api/add-knowledge', { data: { chatbotId: bot.id, url: long } })).status(),
      ).toBe(200);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await page.getByText('YouTube Video').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.reload();
      await card.getByText("When the AI can't find an answer in your content").waitFor();

      const question = 'Do you ship the ukulele course DVD to Canada?';
      const fan = await ask(question);
      await until(async () => (await gaps()).length === 1);
      await page.reload();
      await card.getByText(question).waitFor();
      await card.getByText('Asked once').waitFor();

      await card.getByRole('button', { name: 'Answer' }).click();
      await card.getByRole('button', { name: 'Save answer' }).click();
      await card.getByText('Write an answer first.').waitFor();
      await card
        .getByLabel('Your answer')
        .fill('Yes: the ukulele course DVD ships to Canada in about ten days.');
      await card.getByRole('button', { name: 'Save answer' }).click();
      await page.getByText('Answer saved to your knowledge').first().waitFor();
      await card.getByText("When the AI can't find an answer in your content").waitFor();
      await page.getByText('Q&A - Do you ship the ukulele course DVD to Canada.txt').first().waitFor();
      await screenshot(page, 'dashboard-knowledge-gap-answered');

      // The fan who asked got the answer from the creator.
      expect(
        (await chatOf(fan)).some((m) => m.from === 'creator' && m.message.includes('ships to Canada')),
      ).toBe(true);

      // Once the note is ready, the AI answers the same question from it: no new gap.
      await until(async () => {
        const r = await page.request.get(`/api/creators/username/${USERNAME}/chatbot`);
        const bot = (await r.json()) as { knowledge?: { status: string }[] };
        return bot.knowledge?.some((k) => k.status === 'completed' || k.status === 'active');
      });
      const again = await ask(question);
      const reply = await until(async () => (await chatOf(again)).find((m) => m.from === 'Creatorai'));
      expect(reply.message).toContain('ships to Canada');
      expect(await gaps()).toEqual([]);
    },
    SLOW,
  );
});
