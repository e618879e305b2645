import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type FanTestApi,
  type FanTestCreator,
  fanTestCreatorApi,
  launchFanChromium,
  onboardFanTestCreator,
  openFanChat,
  startFanTestApi,
} from './fan-helpers.ts';

/**
 * Events reach the browser: with the fan chat's event stream open, the creator's answer arrives as
 * an event and shows at once rather than at the next 8-second poll, and the chat's reads are
 * revalidated (If-None-Match, 304) rather than read again.
 */
describe('live updates in the fan app', () => {
  let api: FanTestApi;
  let browser: Browser;
  let creator: FanTestCreator;
  let dashboard: ReturnType<typeof fanTestCreatorApi>;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    api = await startFanTestApi();
    browser = await launchFanChromium();
    creator = await onboardFanTestCreator(api, 'Live bot');
    dashboard = fanTestCreatorApi(api, creator);
    await dashboard.setOnline(true);
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  const openChat = (options: { blockServiceWorkers?: boolean } = {}): Promise<Page> =>
    openFanChat(browser, api, creator.username, contexts, options);

  it("shows the creator's answer as soon as it is stored, through the chat's event stream", async () => {
    const page = await openChat();
    // The api attaches the stream to its hub in the tick that writes its head, so a 200 head that
    // reached the page means the next change is delivered on it.
    const streams: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/events/fans/') && response.status() === 200) {
        streams.push(response.url());
      }
    });
    // What the page's EventSource receives, as Chromium reports it.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const received: { event: string; at: number }[] = [];
    cdp.on('Network.eventSourceMessageReceived', (message) => {
      received.push({ event: message.eventName, at: Date.now() });
    });
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Are you there?');
    await box.press('Enter');
    let questionId: string | undefined;
    await expect
      .poll(
        async () => {
          questionId = (await dashboard.messages()).find((m) => m.message === 'Are you there?')?.id;
          return questionId;
        },
        { timeout: 10_000 },
      )
      .toBeDefined();
    // The first question starts the conversation and the chat opens its stream.
    await expect.poll(() => streams.length, { timeout: 15_000 }).toBeGreaterThan(0);
    const started = Date.now();
    await dashboard.answer(String(questionId), 'Yes, live!');
    await page.getByTestId('message-creator').filter({ hasText: 'Yes, live!' }).waitFor({ timeout: 10_000 });
    const shown = Date.now();
    const event = received.find((e) => e.event === 'change' && e.at >= started);
    expect(event, 'a change event reached the page').toBeDefined();
    console.log(
      `live e2e: the change event reached the fan's browser ${event!.at - started} ms after the answer was sent; the answer showed after ${shown - started} ms`,
    );
    // Delivered at once (the chat's next poll could be up to 8 s away).
    expect(event!.at - started).toBeLessThan(5_000);
  });

  it("revalidates the chat's reads: an unchanged poll is a 304", async () => {
    // The page's own requests (a service worker would answer the page from the 304 it got).
    const page = await openChat({ blockServiceWorkers: true });
    const statuses: number[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === `/api/public/creators/${creator.username}`) {
        statuses.push(response.status());
      }
    });
    // The creator card is polled every 8 s; two polls with nothing changed.
    await expect.poll(() => statuses.length, { timeout: 20_000, interval: 500 }).toBeGreaterThanOrEqual(2);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const revalidated: number[] = [];
    const ids = new Set<string>();
    // The status on the wire (the page itself is handed the cached 200).
    cdp.on('Network.responseReceivedExtraInfo', (event) => {
      if (ids.has(event.requestId)) revalidated.push(event.statusCode);
    });
    cdp.on('Network.requestWillBeSent', (event) => {
      if (event.request.url.endsWith(`/api/public/creators/${creator.username}`)) ids.add(event.requestId);
    });
    await expect.poll(() => revalidated.length, { timeout: 20_000, interval: 500 }).toBeGreaterThanOrEqual(1);
    expect(revalidated).toContain(304);
  });
});
