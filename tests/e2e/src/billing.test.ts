import type { DbHandle } from '@fanpilot/db';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { screenshot, signUpInBrowser } from './helpers/browser.ts';
import { type DashboardRig, startDashboardRig } from './helpers/dashboard.ts';
import type { RunningApi } from './helpers/server.ts';

/**
 * Running low and running out, in Chromium against the built api on PostgreSQL (so the test can
 * spend the creator's credits directly), without Stripe: the warnings in the status card and the
 * banner, the fan app's honest line at 0, and buying credits through the local test checkout.
 */

const USERNAME = 'creator';
const BASE_DB = process.env.TEST_DATABASE_URL;
const SLOW = 120_000;

describe.runIf(BASE_DB)('credits: warnings and buying', () => {
  let api: RunningApi;
  let db: DbHandle;
  let rig: DashboardRig;
  let context: BrowserContext;
  let page: Page;

  /** Spends credits as AI answers would, down to `left`. */
  const leaveCredits = async (left: number) => {
    const creator = await db.db
      .selectFrom('creators')
      .select('id')
      .where('username', '=', USERNAME)
      .executeTakeFirstOrThrow();
    const row = await db.db
      .selectFrom('credit_ledger')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('delta'), eb.lit(0)).as('n'))
      .where('creator_id', '=', creator.id)
      .executeTakeFirstOrThrow();
    await db.db
      .insertInto('credit_ledger')
      .values({ creator_id: creator.id, delta: left - Number(row.n), reason: 'adjustment' })
      .execute();
  };

  beforeAll(async () => {
    rig = await startDashboardRig(BASE_DB);
    ({ api, context, page } = rig);
    db = rig.db!;
  }, SLOW);

  afterAll(async () => {
    await rig?.stop();
  });

  it(
    'warns when credits run low, says the AI is paused at 0 (and the fan is told), and a test purchase restores it',
    async () => {
      await signUpInBrowser(page, api.origin, USERNAME, 'Coach Credits');
      await page.getByText('AI Chatbot Active').waitFor();

      await leaveCredits(42);
      await page.reload();
      await page.getByRole('alert').getByText('Low on credits: 42 left').waitFor();
      await page.getByText('AI Chatbot Active').waitFor();

      await leaveCredits(0);
      await page.reload();
      await page.getByRole('alert').getByText('Out of credits: the AI is paused').waitFor();
      await page.getByText('AI paused', { exact: true }).waitFor();
      await screenshot(page, 'dashboard-out-of-credits');

      // The fan sees an honest line instead of waiting in silence.
      const fan = await context.newPage();
      await fan.goto(`/pwa/${USERNAME}`);
      await fan.getByRole('status').getByText('Local Creator will answer personally.').waitFor();

      // Buy: the Billing section, the local test checkout (which says so), back with the credits.
      await page.getByRole('alert').getByRole('button', { name: 'Buy credits' }).click();
      await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
      await page.getByText(/Test mode: no payment provider is configured/).waitFor();
      await page.getByRole('button', { name: 'Buy 10,000 credits for $1.00' }).click();
      await page.getByRole('heading', { name: 'Test checkout: no real payment' }).waitFor();
      await page.getByRole('button', { name: 'Grant 10,000 test credits' }).click();
      await page.waitForURL(new RegExp(`/dashboard/${USERNAME}`));
      await page.getByText('Payment received: your credits were added.').first().waitFor();
      await page.getByText('10,000 credits', { exact: true }).waitFor();
      await page.getByText('10,000 credits · $1.00').waitFor();
      await screenshot(page, 'dashboard-billing');
      if ((await page.getByRole('alert').filter({ hasText: 'Out of credits' }).count()) > 0) {
        throw new Error('the out-of-credits banner stayed after the purchase');
      }
      await fan.reload();
      await fan.getByRole('textbox', { name: 'Message' }).waitFor();
      if ((await fan.getByText('Local Creator will answer personally.').count()) > 0) {
        throw new Error('the fan still reads that the creator answers personally');
      }
    },
    SLOW,
  );
});
