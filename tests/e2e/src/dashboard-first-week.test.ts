import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, signUpInBrowser } from './helpers/browser.ts';
import { type DashboardRig, startDashboardRig } from './helpers/dashboard.ts';

/**
 * Issue 36 item 9, the dashboard's side, in Chromium: the sign-in error toast's Korean text has a
 * font stack with CJK fonts for every platform (the computed stack is checked, not the machine's
 * fonts), and Fans & Earnings and Billing each have their own icon in the nav.
 */

const USERNAME = 'creator';
const SLOW = 180_000;

/** The CJK fonts the stack must name before the generic family (Linux, macOS/iOS, Windows). */
const CJK_FONTS = ['Noto Sans CJK KR', 'Apple SD Gothic Neo', 'Malgun Gothic'];

describe("the dashboard in a creator's first week", () => {
  let rig: DashboardRig;
  let page: Page;

  beforeAll(async () => {
    rig = await startDashboardRig();
    page = rig.page;
  }, SLOW);
  afterAll(async () => {
    await rig?.stop();
  });

  it(
    'the Korean sign-in error toast is set in a stack with CJK fonts before the generic family',
    async () => {
      const browser = rig.context.browser()!;
      for (const viewport of [
        { width: 1280, height: 800 },
        { width: 390, height: 844 },
      ]) {
        const context = await browser.newContext({ viewport, baseURL: rig.api.origin });
        try {
          const anonymous = await context.newPage();
          await anonymous.goto('/?error=login_failed');
          const toast = anonymous.getByText('로그인 처리 중 오류가 발생했습니다.', { exact: true });
          await toast.waitFor({ timeout: 20_000 });
          const stack = await toast.evaluate((el) => getComputedStyle(el).fontFamily);
          const names = stack.split(',').map((name) => name.trim().replace(/^["']|["']$/g, ''));
          const generic = names.indexOf('sans-serif');
          expect(generic, stack).toBeGreaterThan(0);
          for (const font of CJK_FONTS) {
            expect(names.indexOf(font), `${font} in ${stack}`).toBeGreaterThan(-1);
            expect(names.indexOf(font), `${font} before sans-serif`).toBeLessThan(generic);
          }
          await screenshot(anonymous, `h6-login-error-toast-${viewport.width}x${viewport.height}`);
        } finally {
          await context.close();
        }
      }
    },
    SLOW,
  );

  it(
    'Fans & Earnings and Billing each have their own icon in the nav',
    async () => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await signUpInBrowser(page, rig.api.origin, USERNAME, 'Coach Maya');
      const nav = page.getByRole('complementary');
      const icon = (name: string) =>
        nav
          .getByRole('button', { name })
          .locator('svg')
          .evaluate((svg) => svg.innerHTML);
      const icons = await Promise.all(
        [
          'Dashboard',
          'Chat Management',
          'Announcements',
          'Profile Settings',
          'Fans & Earnings',
          'Billing',
        ].map(icon),
      );
      // Every section its own picture, Fans & Earnings and Billing included.
      expect(new Set(icons).size).toBe(icons.length);
      await screenshot(page, 'h6-nav-icons-1280x800');
    },
    SLOW,
  );
});
