import { routes } from '@fanpilot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DesktopSession, openDesktop, screenshot, watchCsp } from './helpers/browser.ts';
import { type RunningApi, startApi } from './helpers/server.ts';

/** The api's reference (generated from packages/contracts), read in a browser under the api's CSP. */
describe('api reference at /api/docs', () => {
  let api: RunningApi;
  let desktop: DesktopSession;
  const cspViolations: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    api = await startApi();
    desktop = await openDesktop(api.origin);
    await watchCsp(desktop.context, cspViolations);
    desktop.page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await desktop?.close();
    await api?.stop();
  });

  it('renders every call of the contracts, with no CSP violation or script error', async () => {
    const { page } = desktop;
    const response = await page.goto('/api/docs');
    expect(response?.status()).toBe(200);
    const operations = page.locator('.opblock');
    await operations.first().waitFor({ timeout: 20_000 });
    expect(await operations.count()).toBe(Object.keys(routes).length);

    // One call, opened: its path and its documented answers come from the contract.
    const ask = page.locator('.opblock-post').filter({ has: page.locator('[data-path="/api/ask"]') });
    await ask.locator('.opblock-summary').first().click();
    await expect.poll(() => ask.locator('.responses-table').count()).toBeGreaterThan(0);
    await screenshot(page, 'api-docs');
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
