import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { makePng } from './png.ts';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const screenshotDir = fileURLToPath(new URL('../../test-results/', import.meta.url));

/** Debian's Chromium (or CHROMIUM_PATH); waits a while for it, since it may still be installing. */
export async function launchChromium(waitMs = 120_000): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const deadline = Date.now() + waitMs;
  while (!existsSync(executablePath)) {
    if (Date.now() > deadline) throw new Error(`No Chromium at ${executablePath}; set CHROMIUM_PATH.`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}

/** A desktop-sized browser context on `origin` and its first page; close() ends all three. */
export interface DesktopSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  close: () => Promise<void>;
}

export async function openDesktop(origin: string): Promise<DesktopSession> {
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: origin });
  const page = await context.newPage();
  return {
    browser,
    context,
    page,
    async close() {
      await context.close().catch(() => {});
      await browser.close();
    },
  };
}

export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  // Finished animations, so a sliding menu or toast is pictured where it comes to rest.
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage, animations: 'disabled' });
}

/**
 * Collects Content-Security-Policy violations in every page of `context` (popups and the fan app's
 * pages included): the `securitypolicyviolation` events and Chromium's "Refused to …" console errors.
 */
export async function watchCsp(context: BrowserContext, into: string[] = []): Promise<string[]> {
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} on ${event.documentURI}`,
      );
    });
  });
  context.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && /CSP violation|Content Security Policy/.test(text)) into.push(text);
  });
  return into;
}

/** Signs in (the local provider's creator) and onboards in the browser: image, chatbot name, dashboard. */
export async function signUpInBrowser(page: Page, origin: string, username: string, chatbotName: string) {
  await page.goto('/auth/google');
  await page.waitForURL(`${origin}/creator-signup`, { timeout: 20_000 });
  await page
    .getByLabel('Profile image')
    .setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: makePng(256, 256) });
  await page.getByText('Image uploaded').waitFor({ timeout: 20_000 });
  await page.getByLabel('Chatbot name').fill(chatbotName);
  await page.getByRole('button', { name: 'Create my chatbot' }).click();
  await page.waitForURL(`${origin}/dashboard/${username}`, { timeout: 10_000 });
}

/**
 * Resolves once the page has received `count` more responses whose URL `matches` (its polls of a
 * list, say): the evidence a test needs before asserting that something did not happen, instead
 * of sleeping for as long as the polls usually take.
 */
export async function afterResponses(
  page: Page,
  matches: (url: URL) => boolean,
  count: number,
  timeout = 30_000,
): Promise<void> {
  for (let i = 0; i < count; i++) {
    await page.waitForResponse((response) => matches(new URL(response.url())), { timeout });
  }
}
