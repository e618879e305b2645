import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, signUpInBrowser } from './helpers/browser.ts';
import { askAsFan, type DashboardRig, startDashboardRig } from './helpers/dashboard.ts';
import type { RunningApi } from './helpers/server.ts';

/**
 * The daily AI answer budget in the dashboard, in Chromium against the built api: the creator sets
 * it in Chatbot Settings, fans' questions use it up (no model key: the AI answers from the
 * creator's material or politely, one credit each), and the overview then says that questions wait
 * for the creator; raising the budget lifts the notice.
 */

const USERNAME = 'creator';
const SLOW = 120_000;

let api: RunningApi;
let rig: DashboardRig;
let page: Page;

/** A made-up fan's question, as the fan app sends it; whether the AI is to answer it. */
const ask = async (message: string): Promise<boolean> =>
  (await askAsFan(api.origin, USERNAME, message)).aiWillAnswer;

/** The usage call, as the signed-in dashboard makes it. */
async function usage() {
  const response = await page.request.get(`/api/creators/username/${USERNAME}/usage`);
  expect(response.status()).toBe(200);
  return (await response.json()) as {
    aiAnswersToday: number;
    dailyAiBudget: number;
    aiBudgetReached: boolean;
  };
}

async function until<T>(check: () => Promise<T | null | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function setBudgetInSettings(budget: string, expected: string) {
  await page.getByRole('button', { name: 'Chatbot Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Chatbot Settings' });
  await settings.waitFor();
  const field = settings.getByLabel('Daily AI answer budget');
  expect(await field.inputValue()).toBe(expected);
  await field.fill(budget);
  const [put] = await Promise.all([
    page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith('/settings')),
    settings.getByRole('button', { name: 'Save Settings' }).click(),
  ]);
  expect(put.postDataJSON()).toMatchObject({ dailyAiBudget: Number(budget) });
  await settings.waitFor({ state: 'detached' });
}

beforeAll(async () => {
  rig = await startDashboardRig();
  ({ api, page } = rig);
}, SLOW);

afterAll(async () => {
  await rig?.stop();
});

describe('daily AI answer budget in the dashboard', () => {
  it(
    'is set in Chatbot Settings; once used up the overview says questions wait for the creator',
    async () => {
      await signUpInBrowser(page, api.origin, USERNAME, 'Coach Budget');
      await page.getByText('AI Chatbot Active').waitFor();
      await page.getByText('0 of 300 AI answers today').waitFor();
      expect(await page.getByText('Daily AI budget reached').count()).toBe(0);

      // A budget of 0 is refused before anything is sent.
      await page.getByRole('button', { name: 'Chatbot Settings' }).click();
      const settings = page.getByRole('dialog', { name: 'Chatbot Settings' });
      await settings.getByLabel('Daily AI answer budget').fill('0');
      await settings.getByRole('button', { name: 'Save Settings' }).click();
      await page
        .getByText('The daily AI answer budget must be a whole number from 1 to 100,000')
        .first()
        .waitFor();
      await settings.getByRole('button', { name: 'Cancel' }).click();
      await settings.waitFor({ state: 'detached' });

      await setBudgetInSettings('2', '300');
      await page.getByText('0 of 2 AI answers today').waitFor();

      // Three strangers ask: two answers fit in today's budget, the third waits for the creator.
      expect(await ask('How often do I feed my starter?')).toBe(true);
      expect(await ask('What flour do you use?')).toBe(true);
      await until(async () => (await usage()).aiBudgetReached);
      expect(await ask('Can I bake with a cold starter?')).toBe(false);
      expect(await usage()).toMatchObject({ aiAnswersToday: 2, dailyAiBudget: 2, aiBudgetReached: true });

      await page.reload();
      await page.getByText('Daily AI budget reached').waitFor();
      await page.getByText('2 of 2 AI answers today').waitFor();
      await page.getByText(/Until midnight UTC, new questions wait for you to answer them/).waitFor();
      await screenshot(page, 'dashboard-ai-budget-reached');

      // Raising the budget lifts the notice, and the waiting question goes to the AI.
      await setBudgetInSettings('5', '2');
      await until(async () => (await usage()).aiAnswersToday === 3);
      await page.reload();
      await page.getByText('3 of 5 AI answers today').waitFor();
      expect(await page.getByText('Daily AI budget reached').count()).toBe(0);
    },
    SLOW,
  );
});
