import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './helpers/axe.ts';
import { launchChromium, screenshot, watchCsp } from './helpers/browser.ts';
import { makePng } from './helpers/png.ts';
import { type RunningApi, startApi } from './helpers/server.ts';

/**
 * The dashboard app in Debian's Chromium against the built api with its embedded defaults: the
 * local OpenID provider signs everyone in as Local Creator (creator@localhost, username `creator`).
 * The tests share one api, so they run in order: desktop sign-in first (not yet onboarded), then
 * onboarding on a phone, then the dashboard on the desktop session.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const USERNAME = 'creator';

let api: RunningApi;
let browser: Browser;
let desktop: BrowserContext;
const contexts: BrowserContext[] = [];
/** Content-Security-Policy violations in any page of any context: none may happen. */
const cspViolations: string[] = [];

async function newPage(viewport: { width: number; height: number }, context?: BrowserContext): Promise<Page> {
  let owner = context;
  if (!owner) {
    owner = await browser.newContext({ viewport, baseURL: api.origin });
    await watchCsp(owner, cspViolations);
    contexts.push(owner);
  }
  const page = await owner.newPage();
  page.on('pageerror', (error) => console.error(`page error on ${page.url()}:`, error.message));
  return page;
}

/** The on-screen toast region (Radix also mirrors toast text into a hidden live announcer). */
const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/ });

beforeAll(async () => {
  api = await startApi();
  browser = await launchChromium();
  desktop = await browser.newContext({ viewport: DESKTOP, baseURL: api.origin });
  await watchCsp(desktop, cspViolations);
  contexts.push(desktop);
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await browser?.close();
  await api?.stop();
});

describe('landing page', () => {
  it('sells Fanpilot with Start Building, pricing and FAQ, and has no serious accessibility issues', async () => {
    const page = await newPage(DESKTOP);
    const landing = await page.goto('/');
    const headers = landing!.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
    // Each the product description (docs/product.md#landing-page) label names exactly one button (strict locators would fail on two).
    await page.getByRole('button', { name: 'Start Building' }).waitFor();
    expect(await page.getByRole('button', { name: 'Start Building' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Start Free Trial' }).count()).toBe(1);
    await page.getByRole('heading', { name: 'Simple, pay-as-you-go pricing' }).waitFor();
    await page.getByText('$1 per 10,000 credits').waitFor();
    await page.getByText('The first 1,000 credits are free', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Frequently asked questions' }).waitFor();
    await screenshot(page, 'landing-desktop', true);
    expect(await seriousViolations(page)).toEqual([]);

    const phone = await newPage(PHONE);
    // The landing page loads only its own code, compressed (docs/decisions/0038-…): no router, no
    // signed-in pages, and each script sent as the brotli file the build wrote.
    const scripts: { url: string; encoding: string | undefined; length: number }[] = [];
    phone.on('response', (response) => {
      if (response.request().resourceType() === 'script') {
        const headers = response.headers();
        scripts.push({
          url: response.url(),
          encoding: headers['content-encoding'],
          length: Number(headers['content-length'] ?? 0),
        });
      }
    });
    await phone.goto('/');
    await phone.getByRole('button', { name: 'Start Building' }).waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await phone.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      expect(script.url).not.toMatch(/\/assets\/(app|signed-in|DashboardPage|CreatorSignupPage)-/);
      // Files under 1 KB are not worth compressing and are sent as they are.
      if (script.encoding === undefined) expect(script.length, script.url).toBeLessThan(1024);
      else expect(script.encoding, script.url).toBe('br');
    }
    await screenshot(phone, 'landing-phone');
  });

  it('starts Google sign-in from every call to action (the landing page labels and the others)', async () => {
    const page = await newPage(DESKTOP);
    const context = page.context();
    // The sign-in window is answered here, so nobody signs in.
    await context.route('**/auth/google**', (route) => route.fulfill({ body: 'signing in' }));
    await page.goto('/');
    for (const name of ['Start Building', 'Start Free Trial', 'Try it free', 'Get started']) {
      const [popup] = await Promise.all([
        page.waitForEvent('popup'),
        page.getByRole('button', { name, exact: true }).click(),
      ]);
      await popup.waitForURL((url) => url.href === `${api.origin}/auth/google?popup=1`);
      // Once the sign-in window is gone, the page reloads (checked every second).
      const reloaded = page.waitForEvent('load');
      await popup.close();
      await reloaded;
    }
  });

  it('shows the not-found page on any other path', async () => {
    const page = await newPage(DESKTOP);
    const response = await page.goto('/no/such/page');
    // The page is the app's not-found page, and its HTTP status says so.
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await page.getByText('Did you forget to add the page to the router?').waitFor();
    await screenshot(page, 'not-found');
  });

  it('shows a sign-in error from the address as a Korean toast, then clears the address', async () => {
    const page = await newPage(DESKTOP);
    await page.goto('/?error=login_failed&details=session%20store%20down');
    const toast = toasts(page);
    await toast.getByText('로그인 오류').waitFor();
    await toast.getByText('로그인 처리 중 오류가 발생했습니다. (session store down)').waitFor();
    await page.waitForURL(`${api.origin}/`);
    await screenshot(page, 'login-error-toast');
  });

  it('sends a signed-out visitor from the signup page home, asking them to sign in', async () => {
    const page = await newPage(DESKTOP);
    await page.goto('/creator-signup');
    await page.waitForURL(`${api.origin}/`);
    await toasts(page).getByText('Authentication Required').waitFor();
    await toasts(page).getByText('Please sign in to continue with chatbot creation.').waitFor();
  });

  it('sends a signed-out visitor from a dashboard home and says why there', async () => {
    const page = await newPage(DESKTOP);
    await page.goto('/dashboard/someone');
    await page.waitForURL(`${api.origin}/`);
    await toasts(page).getByText('Authentication Required').waitFor();
    await toasts(page).getByText('Please sign in to open your dashboard.').waitFor();
    await page.getByRole('button', { name: 'Start Building' }).waitFor();
    await screenshot(page, 'signed-out-dashboard-visit');
  });
});

describe('sign-in and onboarding', () => {
  it('signs in on a desktop in a popup that closes itself; the page reloads onto the signup page', async () => {
    const page = await newPage(DESKTOP, desktop);
    await page.goto('/');
    const requested: string[] = [];
    desktop.on('request', (request) => requested.push(request.url()));
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Start Building' }).click(),
    ]);
    expect(requested).toContain(`${api.origin}/auth/google?popup=1`);
    expect(page.url()).toBe(`${api.origin}/`);
    if (!popup.isClosed()) await popup.waitForEvent('close', { timeout: 20_000 });
    await page.waitForURL(`${api.origin}/creator-signup`, { timeout: 10_000 });
    await page.getByRole('heading', { name: 'Set up your AI chatbot' }).waitFor();
    await page.close();
  });

  it('onboards a creator on a phone: sign in, upload an image, name the chatbot, land on the dashboard', async () => {
    const page = await newPage(PHONE);
    await page.goto('/');
    await page.getByRole('button', { name: 'Start Building' }).click();
    await page.waitForURL(`${api.origin}/creator-signup`, { timeout: 20_000 });
    await page.getByText('Square image, minimum 200x200 pixels').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Both fields are required; submitting empty explains what is missing.
    await page.getByRole('button', { name: 'Create my chatbot' }).click();
    await page.getByText('Please enter a chatbot name').waitFor();

    // A file that is no image (though named and typed like one, or a PDF) is refused in the
    // browser, before any upload: never previewed, never 'Image uploaded'.
    let uploads = 0;
    const countUpload = (r: { method(): string; url(): string }) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/objects/upload')) uploads++;
    };
    page.on('request', countUpload);
    const notAnImage = 'This file is not an image. Please choose a PNG, JPEG, GIF or WebP image.';
    for (const file of [
      {
        name: 'notes.png',
        mimeType: 'image/png',
        buffer: Buffer.from('These are my notes, not a picture.\n'),
      },
      { name: 'plan.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') },
    ]) {
      await page.getByLabel('Profile image').setInputFiles(file);
      await page.getByRole('alert').getByText(notAnImage).waitFor();
      expect(await page.getByLabel('Profile image').inputValue()).toBe('');
      expect(await page.getByText('Image uploaded').count()).toBe(0);
      expect(await page.getByRole('img', { name: 'Preview of your profile image' }).count()).toBe(0);
    }
    expect(uploads).toBe(0);
    page.off('request', countUpload);

    await page.getByLabel('Profile image').setInputFiles({
      name: 'avatar.png',
      mimeType: 'image/png',
      buffer: makePng(256, 256),
    });
    await page.getByText('Image uploaded').waitFor({ timeout: 20_000 });
    await page.getByRole('img', { name: 'Preview of your profile image' }).waitFor();
    await page.getByLabel('Chatbot name').fill('Coach Local');
    await page.getByLabel(/Description/).fill('Answers questions about my training videos.');
    await screenshot(page, 'signup-phone', true);

    await page.getByRole('button', { name: 'Create my chatbot' }).click();
    await toasts(page).getByText('Welcome to Fanpilot!').waitFor();
    const submittedAt = Date.now();
    await page.waitForURL(`${api.origin}/dashboard/${USERNAME}`, { timeout: 4_000 });
    expect(Date.now() - submittedAt).toBeGreaterThanOrEqual(1_500);
    await page.getByText('Connected live').waitFor();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await screenshot(page, 'dashboard-phone');

    // The phone menu offers Dashboard, Chat Management, Announcements and Logout; no Profile Settings.
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await menu.waitFor();
    for (const item of ['Dashboard', 'Chat Management', 'Announcements']) {
      await menu.getByRole('button', { name: item }).waitFor();
    }
    expect(await menu.getByRole('link', { name: 'Logout' }).getAttribute('href')).toBe('/auth/logout');
    expect(await menu.getByRole('button', { name: 'Profile Settings' }).count()).toBe(0);
    await screenshot(page, 'dashboard-phone-menu');
    await menu.getByRole('button', { name: 'Chat Management' }).click();
    await menu.waitFor({ state: 'detached' });
    await page.getByText('No fan conversations yet.').waitFor();
  });

  it('keeps an onboarded creator on their own dashboard and shows every section', async () => {
    const page = await newPage(DESKTOP, desktop);
    // The landing page and the signup page both send an onboarded creator to the dashboard.
    await page.goto('/');
    await page.waitForURL(`${api.origin}/dashboard/${USERNAME}`);
    await page.goto('/creator-signup');
    await page.waitForURL(`${api.origin}/dashboard/${USERNAME}`);
    // Someone else's username (or none) leads to the creator's own dashboard.
    await page.goto('/admin/somebody-else');
    await page.waitForURL(`${api.origin}/admin/${USERNAME}`);

    await page.getByText('Connected live').waitFor();
    for (const text of ['Pending questions', "Today's responses", "Today's AI responses", '98%']) {
      await page.getByText(text, { exact: true }).waitFor();
    }
    await page.getByText('AI Chatbot Active').or(page.getByText('No chatbot yet')).waitFor();
    await page.getByText('No knowledge sources added yet').waitFor();
    await page.getByText('No recent activity').waitFor();
    // The status endpoints may not exist yet: the switch then reads Offline, and nothing breaks.
    const statusSwitch = page.getByRole('switch', { name: 'Response Status' });
    await statusSwitch.waitFor();
    await screenshot(page, 'dashboard-desktop', true);
    expect(await seriousViolations(page)).toEqual([]);

    const sidebar = page.getByRole('complementary');
    await sidebar.getByRole('button', { name: 'Announcements' }).click();
    await page.getByRole('heading', { name: 'Announcements', level: 1 }).waitFor();
    await page.getByText('0/500 characters').waitFor();
    await page.getByLabel('New announcement').fill('Live Q&A on Friday');
    await page.getByText('18/500 characters').waitFor();
    await page.getByText('No announcement history').waitFor();

    await sidebar.getByRole('button', { name: 'Profile Settings' }).click();
    await page.getByText('Contact support to change your name').waitFor();
    await page.getByText('Username cannot be changed').waitFor();
    await page.getByText(`${api.origin}/admin/${USERNAME}`).waitFor();
    await page.getByText(`${api.origin}/pwa/${USERNAME}`).waitFor();
    await page.getByRole('img', { name: 'Profile image of Local Creator' }).waitFor();
    await screenshot(page, 'dashboard-profile-settings');
    expect(await sidebar.getByRole('link', { name: 'Logout' }).getAttribute('href')).toBe('/auth/logout');
  });
});

describe('content security policy', () => {
  it('landing, sign-in, onboarding and the dashboard above ran with no CSP violation', () => {
    expect(cspViolations).toEqual([]);
  });
});
