import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './helpers/axe.ts';
import { screenshot, signUpInBrowser } from './helpers/browser.ts';
import { type DashboardRig, startDashboardRig } from './helpers/dashboard.ts';

/**
 * Issue 38, record 0082: on a 390×844 phone the sections that came after SPEC (Fans & Earnings,
 * Billing, and the notification settings as a section of their own) are in the slide-out menu and
 * usable: no sideways scroll, every control a 44 px tap target, the section's primary action on
 * screen, no serious accessibility violation. Profile Settings stays desktop-only (SPEC); the
 * notification settings are a section on the desktop sidebar too.
 */

const USERNAME = 'creator';
const SLOW = 180_000;
const PHONE = { width: 390, height: 844 };
const MIN_TAP = 44;

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);
}

/**
 * Every visible control in <main> that is smaller than a 44 px tap target: buttons, links, inputs
 * and selects by their own box; checkboxes by their label's (tapping the label ticks the box).
 */
async function smallTapTargets(page: Page): Promise<string[]> {
  return page.locator('main').evaluate((main, min) => {
    const controls = main.querySelectorAll<HTMLElement>(
      'button, a[href], select, textarea, input:not([type="hidden"]):not([type="file"])',
    );
    const small: string[] = [];
    for (const control of controls) {
      const boxed =
        control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio')
          ? (control.closest('label') ?? control)
          : control;
      const rect = boxed.getBoundingClientRect();
      if (rect.width === 0 && rect.height === 0) continue; // not shown
      const tooSmall = rect.height < min || (control.tagName === 'BUTTON' && rect.width < min);
      if (tooSmall) {
        const name =
          control.getAttribute('aria-label') ?? (control.textContent ?? '').trim() ?? control.tagName;
        small.push(
          `${control.tagName.toLowerCase()} "${name.slice(0, 40)}" ${Math.round(rect.width)}×${Math.round(rect.height)}`,
        );
      }
    }
    return small;
  }, MIN_TAP);
}

/** The control is on the phone's screen (scrolled into view if need be) and large enough to tap. */
async function primaryActionUsable(action: Locator) {
  await action.scrollIntoViewIfNeeded();
  const box = await action.boundingBox();
  expect(box, 'primary action has a box').not.toBeNull();
  if (!box) return;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  expect(box.height).toBeGreaterThanOrEqual(MIN_TAP);
  expect(await action.isVisible()).toBe(true);
}

async function openFromMenu(page: Page, section: string) {
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await menu.getByRole('button', { name: section }).click();
  await menu.waitFor({ state: 'detached' });
  await page.getByRole('heading', { name: section, level: 1 }).waitFor();
}

describe('the dashboard on a phone: every section since SPEC in the menu, usable at 390 px', () => {
  let rig: DashboardRig;
  let page: Page;

  beforeAll(async () => {
    rig = await startDashboardRig();
    page = rig.page;
    await page.setViewportSize(PHONE);
    await signUpInBrowser(page, rig.api.origin, USERNAME, 'Coach Maya');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  }, SLOW);
  afterAll(async () => {
    await rig?.stop();
  });

  it(
    "the menu offers SPEC's sections, Fans & Earnings, Billing and Notifications, and Logout; no Profile Settings",
    async () => {
      await page.getByRole('button', { name: 'Open menu' }).click();
      const menu = page.getByRole('dialog', { name: 'Menu' });
      await menu.waitFor();
      const items = await menu.getByRole('navigation').getByRole('listitem').allInnerTexts();
      expect(items.map((item) => item.trim())).toEqual([
        'Dashboard',
        'Chat Management',
        'Announcements',
        'Insights',
        'Fans & Earnings',
        'Billing',
        'Notifications',
        'Logout',
      ]);
      for (const item of await menu.locator('button, a[href]').all()) {
        const box = await item.boundingBox();
        expect(box?.height ?? 0).toBeGreaterThanOrEqual(MIN_TAP);
      }
      await screenshot(page, 'h6n-phone-menu-390x844');
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
    },
    SLOW,
  );

  for (const { section, action, shot } of [
    { section: 'Fans & Earnings', action: 'Save plan', shot: 'earnings' },
    { section: 'Billing', action: /^Buy [\d,]+ credits for/, shot: 'billing' },
    { section: 'Notifications', action: 'Save notifications', shot: 'notifications' },
  ]) {
    it(
      `opens ${section} from the menu, usable at 390 px`,
      async () => {
        await openFromMenu(page, section);
        const primary = page.getByRole('main').getByRole('button', { name: action }).first();
        await primary.waitFor();
        // Focus moved to the section's heading, as a page change would (its code loads on demand).
        await page.waitForFunction((name) => document.activeElement?.textContent === name, section);
        await noSidewaysScroll(page);
        expect(await smallTapTargets(page)).toEqual([]);
        await primaryActionUsable(primary);
        await page.evaluate(() => window.scrollTo({ top: 0 }));
        await screenshot(page, `h6n-phone-${shot}-390x844`, true);
        expect(await seriousViolations(page)).toEqual([]);
      },
      SLOW,
    );
  }

  it(
    'the notification settings reflow on the phone: each alert on its own line, its boxes labelled, and they save',
    async () => {
      const form = page.getByRole('form', { name: 'Notifications' });
      const byEmail = form.getByLabel('Credits running low: Email');
      // The header row is for screen readers only; each box shows its channel beside it.
      expect(
        await form.locator('thead').evaluate((head) => head.getBoundingClientRect().height),
      ).toBeLessThanOrEqual(1);
      const row = form.locator('tbody tr').first();
      const [kind, email] = await Promise.all([
        row.locator('th').boundingBox(),
        row.locator('td').first().boundingBox(),
      ]);
      expect(email?.y ?? 0).toBeGreaterThan(kind?.y ?? 0);
      const wasOn = await byEmail.isChecked();
      // Tapping the label beside the box ticks it.
      await form
        .locator('label')
        .filter({ has: page.getByLabel('Credits running low: Email') })
        .getByText('Email', { exact: true })
        .click();
      expect(await byEmail.isChecked()).toBe(!wasOn);
      await form.getByRole('button', { name: 'Save notifications' }).click();
      await page.getByText('Notification settings saved', { exact: true }).waitFor();
      const saved = await (
        await page.request.get(`${rig.api.origin}/api/creators/username/${USERNAME}/notifications`)
      ).json();
      expect(saved.kinds.credits_low.email).toBe(!wasOn);
    },
    SLOW,
  );

  it(
    'on a desktop Notifications is a sidebar section of its own, and Profile Settings no longer holds it',
    async () => {
      await page.setViewportSize({ width: 1280, height: 800 });
      const sidebar = page.getByRole('complementary');
      await sidebar.getByRole('button', { name: 'Profile Settings' }).click();
      await page.getByRole('heading', { name: 'Profile Settings', level: 1 }).waitFor();
      await page.getByText('Username cannot be changed').waitFor();
      expect(await page.getByRole('form', { name: 'Notifications' }).count()).toBe(0);
      await sidebar.getByRole('button', { name: 'Notifications' }).click();
      await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
      await page
        .getByRole('form', { name: 'Notifications' })
        .getByLabel('Credits running low: Push')
        .waitFor();
      await screenshot(page, 'h6n-notifications-1280x800', true);
      expect(await seriousViolations(page)).toEqual([]);
    },
    SLOW,
  );
});
