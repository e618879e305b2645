import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type FanTestApi,
  type FanTestCreator,
  fanTestCreatorApi,
  launchFanChromium,
  newFanPhoneContext,
  onboardFanTestCreator,
  readFanIdFrom,
  saveFanScreenshot,
  startFanTestApi,
  waitForFanServiceWorker,
} from './fan-helpers.ts';
import { seriousViolations } from './helpers/axe.ts';

/**
 * A fan's conversation belongs to the browser that started it (docs/decisions/0003-fans.md): two Chromium
 * contexts are two browsers; a one-time link moves the chat from one to the other.
 */
describe('fan trust: the chat belongs to its browser', () => {
  let api: FanTestApi;
  let browser: Browser;
  let creator: FanTestCreator;
  const contexts: BrowserContext[] = [];

  async function newPhone(): Promise<BrowserContext> {
    // No service worker: what the page shows comes from the api, not from a kept copy.
    const context = await newFanPhoneContext(browser, api, { blockServiceWorkers: true });
    contexts.push(context);
    return context;
  }

  async function openChat(context: BrowserContext, address = `/pwa/${creator.username}`): Promise<Page> {
    const page = await context.newPage();
    await page.goto(address);
    return page;
  }

  async function send(page: Page, text: string) {
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill(text);
    await box.press('Enter');
    await page.getByTestId('message-fan').filter({ hasText: text }).waitFor({ timeout: 15_000 });
  }

  beforeAll(async () => {
    api = await startFanTestApi();
    browser = await launchFanChromium();
    creator = await onboardFanTestCreator(api, 'Trust bot');
    // Online: no AI answers in these chats.
    await fanTestCreatorApi(api, creator).setOnline(true);
  });

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  it('a second browser that knows the fan id cannot read or write the first one’s chat', async () => {
    const first = await openChat(await newPhone());
    await send(first, 'My private question about my diet');
    const fanId = await readFanIdFrom(first);
    expect(fanId).toMatch(/^mobile_fan_[a-z0-9]+_\d+_[0-9a-f]{32}$/);

    // Another browser that somehow has the fan id in its storage.
    const intruder = await openChat(await newPhone());
    await intruder.evaluate((id) => localStorage.setItem('fanchat_fan_id', id), fanId!);
    await intruder.reload();
    const notice = intruder.getByRole('alert').filter({ hasText: 'held by another browser' });
    await notice.waitFor({ timeout: 15_000 });
    expect(await intruder.getByText('My private question about my diet').count()).toBe(0);
    expect(await intruder.getByRole('textbox', { name: 'Message' }).count()).toBe(0);
    // The api itself, asked from that browser with the fan id, answers 403 with nothing of the chat.
    const direct = await intruder.evaluate(
      async ([id, username]) => {
        const read = await fetch(`/api/chatlog/fan/${id}?creator=${username}`);
        const ask = await fetch('/api/ask', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ creator: username, fanId: id, message: 'Written by someone else' }),
        });
        return { read: read.status, readBody: await read.text(), ask: ask.status };
      },
      [fanId!, creator.username] as const,
    );
    expect(direct.read).toBe(403);
    expect(direct.readBody).not.toContain('diet');
    expect(direct.ask).toBe(403);
    await saveFanScreenshot(intruder, 'held-elsewhere');
    expect(await seriousViolations(intruder)).toEqual([]);

    // "Start a new chat" gives this browser its own, empty conversation.
    await notice.getByRole('button', { name: 'Start a new chat' }).click();
    await intruder.getByRole('textbox', { name: 'Message' }).waitFor();
    const newId = await readFanIdFrom(intruder);
    expect(newId).not.toBe(fanId);
    await send(intruder, 'Hello, I am new here');
    // The first browser's chat is as it was.
    await first.reload();
    await first.getByTestId('message-fan').filter({ hasText: 'My private question about my diet' }).waitFor();
    expect(await first.getByText('Written by someone else').count()).toBe(0);
  });

  it('a one-time link (or its QR code) moves the chat to a new phone; the old one loses it', async () => {
    const oldPhone = await openChat(await newPhone());
    await send(oldPhone, 'Week one plan, please');
    const fanId = await readFanIdFrom(oldPhone);

    // Its accessible name is its visible label; the longer hint is its description.
    const move = oldPhone.getByRole('button', { name: 'Move chat', exact: true });
    expect(await move.getAttribute('title')).toBe('Move this chat to another phone or browser');
    await move.click();
    const panel = oldPhone.getByRole('dialog', { name: 'Move this chat to another phone' });
    await panel.waitFor();
    await panel.getByTestId('transfer-qr').waitFor();
    await panel.getByText('If both its cookies and its stored site data are cleared').waitFor();
    const link = await panel.getByRole('textbox', { name: 'One-time link' }).inputValue();
    expect(link).toMatch(new RegExp(`^${api.url}/pwa/${creator.username}#transfer=[A-Za-z0-9_-]+$`));
    await saveFanScreenshot(oldPhone, 'transfer-panel');
    expect(await seriousViolations(oldPhone)).toEqual([]);
    await panel.getByRole('button', { name: 'Close' }).click();
    await panel.waitFor({ state: 'hidden' });

    // The new phone has never opened this chat.
    const newContext = await newPhone();
    const newPhonePage = await openChat(newContext, link);
    await newPhonePage
      .getByTestId('message-fan')
      .filter({ hasText: 'Week one plan, please' })
      .waitFor({ timeout: 15_000 });
    expect(await readFanIdFrom(newPhonePage)).toBe(fanId);
    expect(new URL(newPhonePage.url()).hash).toBe('');
    await send(newPhonePage, 'Now on my new phone');

    // The old phone: the chat is no longer there, and it cannot write in it.
    await oldPhone.reload();
    await oldPhone
      .getByRole('alert')
      .filter({ hasText: 'held by another browser' })
      .waitFor({ timeout: 15_000 });
    expect(await oldPhone.getByText('Week one plan, please').count()).toBe(0);

    // The link worked once.
    const third = await openChat(await newPhone(), link);
    await third
      .getByRole('heading', { name: 'This link did not move the chat' })
      .waitFor({ timeout: 15_000 });
    await third.getByText('already used').waitFor();
    await saveFanScreenshot(third, 'transfer-used');
  });

  it('after a move, the old phone’s service worker keeps no copy of the chat for offline', async () => {
    const oldContext = await newFanPhoneContext(browser, api);
    contexts.push(oldContext);
    const oldPhone = await openChat(oldContext);
    await waitForFanServiceWorker(oldPhone);
    await send(oldPhone, 'Kept for offline reading');
    // Read again through the worker, then offline: the kept copy shows.
    await oldPhone.reload();
    await oldPhone.getByTestId('message-fan').filter({ hasText: 'Kept for offline reading' }).waitFor();
    await oldContext.setOffline(true);
    await oldPhone.reload();
    await oldPhone.getByTestId('message-fan').filter({ hasText: 'Kept for offline reading' }).waitFor();
    await oldContext.setOffline(false);

    const link = await oldPhone.evaluate(
      async ([username, fanId]) => {
        const res = await fetch('/api/fan-transfers', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ creator: username, fanId }),
        });
        return ((await res.json()) as { url: string }).url;
      },
      [creator.username, (await readFanIdFrom(oldPhone))!] as const,
    );
    const taker = await openChat(await newPhone(), link);
    await taker.getByTestId('message-fan').filter({ hasText: 'Kept for offline reading' }).waitFor();

    await oldPhone.reload();
    await oldPhone
      .getByRole('alert')
      .filter({ hasText: 'held by another browser' })
      .waitFor({ timeout: 15_000 });
    await oldContext.setOffline(true);
    // The offline page's read of the chat log settles (answered by the worker or failed) before
    // anything is asserted: the state it waits for, not a time.
    const isChatlog = (request: { url(): string }) => request.url().includes('/api/chatlog/fan/');
    const chatlogSettled = Promise.race([
      oldPhone.waitForEvent('requestfinished', { predicate: isChatlog, timeout: 20_000 }),
      oldPhone.waitForEvent('requestfailed', { predicate: isChatlog, timeout: 20_000 }),
    ]);
    await oldPhone.reload();
    await oldPhone.getByRole('textbox', { name: 'Message' }).waitFor();
    await chatlogSettled;
    expect(await oldPhone.getByText('Kept for offline reading').count()).toBe(0);
    // And the worker's store itself holds no copy of the moved chat.
    const keptCopies = await oldPhone.evaluate(async (text) => {
      let found = 0;
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
          if (!request.url.includes('/api/chatlog/')) continue;
          const body = await (await cache.match(request))?.text();
          if (body?.includes(text)) found++;
        }
      }
      return found;
    }, 'Kept for offline reading');
    expect(keptCopies).toBe(0);
    await oldContext.setOffline(false);
  });
});
