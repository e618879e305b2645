import type { DbHandle } from '@fanpilot/db';
import { seedCreator } from '@fanpilot/testkit';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './helpers/axe.ts';
import { screenshot, watchCsp } from './helpers/browser.ts';
import { type DashboardRig, startDashboardRig } from './helpers/dashboard.ts';
import { makePng } from './helpers/png.ts';

// Issue 36, item 3: the creator chooses their username (the fan link) at onboarding, told as they
// type whether it is free; the fan app then wears the brand they set up (the chatbot's name).

const BASE_DB = process.env.TEST_DATABASE_URL;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const SLOW = 120_000;

describe.runIf(BASE_DB)('choosing the username at onboarding, and the brand in the fan app', () => {
  let rig: DashboardRig;
  let db: DbHandle;
  let browser: Browser;
  let taken: string;
  const contexts: BrowserContext[] = [];
  const csp: string[] = [];

  const open = async (viewport: { width: number; height: number }): Promise<Page> => {
    const context = await browser.newContext({ viewport, baseURL: rig.api.origin });
    await watchCsp(context, csp);
    contexts.push(context);
    return context.newPage();
  };
  const status = (page: Page) => page.getByTestId('username-status');
  const usernameField = (page: Page) => page.getByRole('textbox', { name: 'Username' });
  const noOverflow = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  beforeAll(async () => {
    rig = await startDashboardRig(BASE_DB);
    db = rig.db!;
    const b = rig.context.browser();
    if (!b) throw new Error('no browser');
    browser = b;
    // Another creator already holds a name.
    const other = await seedCreator(db.db, { name: 'Sam Taken' });
    taken = (
      await db.db
        .selectFrom('creators')
        .select('username')
        .where('id', '=', other.creatorId)
        .executeTakeFirstOrThrow()
    ).username;
  }, SLOW);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await rig?.stop();
  });

  it(
    'on a 1280×800 desktop: the assigned name is offered, and each refusal is said in words as the creator types',
    async () => {
      const page = await open(DESKTOP);
      await page.goto('/auth/google');
      await page.waitForURL(`${rig.api.origin}/creator-signup`, { timeout: 20_000 });
      // The name assigned at first sign-in, free for them.
      expect(await usernameField(page).inputValue()).toBe('creator');
      await status(page)
        .getByText(`Available: your fan link will be ${rig.api.origin}/pwa/creator`)
        .waitFor();

      await usernameField(page).fill('api');
      await status(page).getByText('This username is reserved. Please choose another.').waitFor();
      await status(page).getByRole('button', { name: 'Use api-fan' }).waitFor();

      // Another creator's name, in capitals: taken all the same, with a free one to take instead.
      await usernameField(page).fill(taken.toUpperCase());
      await status(page).getByText('This username is taken. Please choose another.').waitFor();
      const suggestion = status(page).getByRole('button', { name: `Use ${taken}-2` });
      await suggestion.waitFor();
      expect(await usernameField(page).getAttribute('aria-invalid')).toBe('true');
      await screenshot(page, 'h5-username-taken-desktop');

      await suggestion.click();
      expect(await usernameField(page).inputValue()).toBe(`${taken}-2`);
      await status(page)
        .getByText(`Available: your fan link will be ${rig.api.origin}/pwa/${taken}-2`)
        .waitFor();

      await usernameField(page).fill('zoë');
      await status(page)
        .getByText(/only lowercase letters a–z, digits and single hyphens/)
        .waitFor();
      await usernameField(page).fill('x'.repeat(31));
      await status(page).getByText('A username has at most 30 characters.').waitFor();

      await usernameField(page).fill('Coach-Mina');
      await status(page)
        .getByText(`Available: your fan link will be ${rig.api.origin}/pwa/coach-mina`)
        .waitFor();
      await screenshot(page, 'h5-username-available-desktop');
      expect(await seriousViolations(page)).toEqual([]);
      expect(await noOverflow(page)).toBeLessThanOrEqual(0);
    },
    SLOW,
  );

  it(
    'on a 390×844 phone: a taken name blocks the signup; the chosen one becomes the fan link, and the fan app wears the chatbot name',
    async () => {
      const page = await open(PHONE);
      await page.goto('/auth/google');
      await page.waitForURL(`${rig.api.origin}/creator-signup`, { timeout: 20_000 });
      await page
        .getByLabel('Profile image')
        .setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: makePng(256, 256) });
      await page.getByText('Image uploaded').waitFor({ timeout: 20_000 });
      await page.getByLabel('Chatbot name').fill('Coach Mina AI');

      await usernameField(page).fill(taken);
      await status(page).getByText('This username is taken. Please choose another.').waitFor();
      expect(await noOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, 'h5-username-taken-phone', true);
      // Submitting now goes nowhere: the field says why, and keeps the focus.
      await page.getByRole('button', { name: 'Create my chatbot' }).click();
      await expect.poll(() => usernameField(page).evaluate((el) => el === document.activeElement)).toBe(true);
      expect(new URL(page.url()).pathname).toBe('/creator-signup');

      await usernameField(page).fill('coach-mina');
      await status(page)
        .getByText(`Available: your fan link will be ${rig.api.origin}/pwa/coach-mina`)
        .waitFor();
      await screenshot(page, 'h5-username-available-phone', true);
      await page.getByRole('button', { name: 'Create my chatbot' }).click();
      await page.waitForURL(`${rig.api.origin}/dashboard/coach-mina`, { timeout: 10_000 });

      // The fan app: the chatbot's name in its header and title, and in the installed app's name.
      const fan = await open(PHONE);
      await fan.goto('/pwa/coach-mina');
      await expect.poll(() => fan.getByRole('heading', { level: 1 }).textContent()).toBe('Coach Mina AI');
      await expect.poll(() => fan.title()).toBe('Chat with Coach Mina AI');
      await fan.getByRole('img', { name: 'Photo of Coach Mina AI' }).waitFor();
      const manifest = (await (
        await fetch(`${rig.api.origin}/pwa/coach-mina/manifest.webmanifest`)
      ).json()) as { name: string; short_name: string; icons: { src: string }[] };
      expect(manifest.name).toBe('Coach Mina AI');
      expect(manifest.short_name).toBe('Coach');
      expect(manifest.icons[0]?.src).toMatch(/^\/objects\/uploads\//);
      await screenshot(fan, 'h5-fan-header-phone');

      const wide = await open(DESKTOP);
      await wide.goto('/pwa/coach-mina');
      await expect.poll(() => wide.getByRole('heading', { level: 1 }).textContent()).toBe('Coach Mina AI');
      await screenshot(wide, 'h5-fan-header-desktop');
      expect(csp).toEqual([]);
    },
    SLOW,
  );
});
