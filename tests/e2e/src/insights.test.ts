import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './helpers/axe.ts';
import { screenshot, signUpInBrowser } from './helpers/browser.ts';
import { askAsFan, type DashboardRig, startDashboardRig } from './helpers/dashboard.ts';
import type { RunningApi } from './helpers/server.ts';

/**
 * Insights (issue 38) in Chromium against the built api on embedded defaults (the local
 * sentence encoder, no model key): fans ask a known mix of questions; the creator opens Insights
 * from the sidebar (desktop) and the menu (phone) and sees the questions grouped by meaning, each
 * chart with its table, and passes the accessibility check at 1280×800 and 390×844.
 */

const USERNAME = 'creator';
const SLOW = 180_000;

let api: RunningApi;
let rig: DashboardRig;
let page: Page;

interface Report {
  ungrouped: number;
  topics: { label: string; questions: number }[];
}

async function until<T>(check: () => Promise<T | null | false | undefined>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  // On PostgreSQL when the machine has it (the api starts sooner than on embedded PGlite).
  rig = await startDashboardRig(process.env.TEST_DATABASE_URL);
  ({ api, page } = rig);
}, SLOW);

afterAll(async () => {
  await rig?.stop();
});

describe('Insights', () => {
  it(
    'groups fans’ questions by meaning, with charts and their tables, on desktop and on a phone',
    async () => {
      await signUpInBrowser(page, api.origin, USERNAME, 'Coach Insights');
      for (const q of [
        'How do I tune my ukulele?',
        'What is the right tuning for a ukulele?',
        'ukulele tuning help please',
        'How much does the course cost?',
        'What is the price of the beginner course?',
      ]) {
        await askAsFan(api.origin, USERNAME, q);
      }
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByRole('button', { name: 'Insights' }).first().click();
      await page.getByRole('heading', { level: 1, name: 'Insights' }).waitFor();
      // Grouping runs in the background after the visit; the report says when it is done.
      const report = await until(async () => {
        const r = await page.request.get(`/api/creators/username/${USERNAME}/insights?period=30`);
        const body = (await r.json()) as Report;
        return body.ungrouped === 0 && body.topics.length > 0 ? body : null;
      });
      expect(report.topics.map((t) => t.questions)).toEqual([3, 2]);
      const rows = page.getByTestId('insights-topic');
      await until(async () => (await rows.count()) === 2);
      await expect(rows.first().textContent()).resolves.toContain('How do I tune my ukulele?');
      await page
        .getByRole('figure', { name: 'Questions per topic, this period and the one before' })
        .waitFor();
      await page.getByRole('region', { name: 'Fans at each step: the numbers' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'h5n-insights-1280x800');
      await screenshot(page, 'h5n-insights-1280x800-full', true);

      await page.getByRole('button', { name: '7 days' }).click();
      await page.getByRole('button', { name: '7 days', pressed: true }).waitFor();

      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Insights' }).click();
      await page.getByRole('heading', { level: 1, name: 'Insights' }).waitFor();
      await until(async () => (await rows.count()) === 2);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'h5n-insights-390x844');
      await screenshot(page, 'h5n-insights-390x844-full', true);

      const csv = await page.request.get(`/api/creators/username/${USERNAME}/insights/topics.csv?period=30`);
      expect(csv.status()).toBe(200);
      expect((await csv.text()).split('\r\n')[0]).toContain('topic,questions');
    },
    SLOW,
  );
});
