import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPushService } from '../../../apps/api/test/support/push-service.ts';
import {
  type FanTestApi,
  type FanTestCreator,
  fanTestCreatorApi,
  launchFanChromium,
  newFanPhoneContext,
  onboardFanTestCreator,
  saveFanScreenshot,
  startFanTestApi,
  waitForFanServiceWorker,
} from './fan-helpers.ts';

/**
 * Web Push in Chromium against the built api and fan app. Headless Chromium has no push service of
 * its own (pushManager.subscribe needs Google's), so the page's pushManager hands out a subscription
 * of the loopback push service instead; everything after that is real: the opt-in after the first
 * question, the browser's permission, the api's encrypted, signed push (decrypted and checked by
 * the loopback service), and the service worker showing it (the push delivered through the
 * DevTools protocol, as Chromium's own push service would). The click is dispatched inside the
 * service worker, with the window calls it makes recorded (headless Chromium cannot click a
 * system notification).
 */
describe('fan app: notifications when the creator answers', () => {
  let api: FanTestApi;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let creator: FanTestCreator;
  let service: Awaited<ReturnType<typeof startPushService>>;

  beforeAll(async () => {
    service = await startPushService();
    api = await startFanTestApi({ PUSH_ALLOWED_HOSTS: '127.0.0.1' });
    browser = await launchFanChromium();
    creator = await onboardFanTestCreator(api, 'Push bot');
    await fanTestCreatorApi(api, creator).setOnline(true);
    context = await newFanPhoneContext(browser, api);
    await context.grantPermissions(['notifications'], { origin: api.url });
    const device = service.device();
    await context.addInitScript((subscription) => {
      let current: unknown = null;
      const make = () => ({
        endpoint: subscription.endpoint,
        expirationTime: null,
        toJSON: () => subscription,
        unsubscribe: async () => {
          current = null;
          return true;
        },
      });
      PushManager.prototype.subscribe = async () => {
        current = make();
        return current as PushSubscription;
      };
      PushManager.prototype.getSubscription = async () => current as PushSubscription | null;
    }, device.subscription);
    page = await context.newPage();
  }, 120_000);

  afterAll(async () => {
    await context?.close().catch(() => {});
    await browser?.close();
    await api?.stop();
    await service?.close();
  });

  it('offers notifications after the first question, pushes the answer, shows it and opens the chat', async () => {
    await page.goto(`/pwa/${creator.username}`);
    await waitForFanServiceWorker(page);
    // Never on page load.
    expect(await page.getByText(`Tell me when ${creator.name} answers`).count()).toBe(0);

    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('When is the next live session?');
    await box.press('Enter');
    const offer = page.getByRole('region', { name: 'Notifications' });
    await offer.getByText(`Tell me when ${creator.name} answers`).waitFor({ timeout: 15_000 });
    await saveFanScreenshot(page, 'push-offer');
    await offer.getByRole('button', { name: 'Turn on' }).click();
    const bell = page.getByRole('button', { name: 'Notifications are on. Tap to turn them off.' });
    await bell.waitFor();
    expect(await bell.getAttribute('aria-pressed')).toBe('true');
    expect(await offer.count()).toBe(0);

    // The creator answers: the api pushes it, encrypted and signed, to the device.
    const creatorApi = fanTestCreatorApi(api, creator);
    const question = (await creatorApi.messages()).find(
      (m) => m.message === 'When is the next live session?',
    )!;
    await creatorApi.answer(question.id, 'Thursday at 8 pm, right here.');
    const deadline = Date.now() + 15_000;
    while (service.received.length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const push = service.received[0]!;
    expect(push.payload).toMatchObject({
      title: `${creator.name} replied`,
      body: 'Thursday at 8 pm, right here.',
      tag: `chat-${creator.username}`,
    });

    // The fan left the chat; the push arrives: the service worker shows it.
    await page.goto('/fanchat-mobile?creator=nobody-here');
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
        const mine = event.registrations.find((r) => r.scopeURL.startsWith(api.url) && !r.isDeleted);
        if (mine) resolve(mine.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: api.url,
      registrationId: await registrationId,
      data: JSON.stringify(push.payload),
    });
    const shown = await page.waitForFunction(
      async () => {
        const registration = await navigator.serviceWorker.ready;
        const list = await registration.getNotifications();
        return list.length > 0
          ? list.map((n) => ({ title: n.title, body: n.body, data: n.data as unknown }))
          : null;
      },
      undefined,
      { timeout: 10_000 },
    );
    const [notification] = (await shown.jsonValue()) as {
      title: string;
      body: string;
      data: { url: string };
    }[];
    expect(notification).toMatchObject({
      title: `${creator.name} replied`,
      body: 'Thursday at 8 pm, right here.',
    });
    expect(new URL(notification!.data.url).pathname).toBe(`/pwa/${creator.username}`);

    // A tap opens that creator's chat at the new message.
    const [worker] = context.serviceWorkers();
    const opened = await worker!.evaluate(async () => {
      // Inside the service worker (this file is typed for pages, so its globals are named here).
      const sw = self as unknown as {
        clients: { openWindow: (url: string) => Promise<unknown> };
        registration: { getNotifications: () => Promise<Notification[]> };
        dispatchEvent: (event: Event) => boolean;
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
      };
      const calls: string[] = [];
      sw.clients.openWindow = async (url: string) => {
        calls.push(String(url));
        return null;
      };
      const [n] = await sw.registration.getNotifications();
      const event = new sw.NotificationEvent('notificationclick', { notification: n! });
      const done: Promise<unknown>[] = [];
      (event as unknown as { waitUntil: (p: Promise<unknown>) => void }).waitUntil = (p) => done.push(p);
      sw.dispatchEvent(event);
      await Promise.all(done);
      return { calls, left: (await sw.registration.getNotifications()).length };
    });
    expect(opened.calls).toEqual([notification!.data.url]);
    expect(opened.left).toBe(0);

    // The bell turns notifications off: the api forgets the device.
    await page.goto(`/pwa/${creator.username}`);
    await page.getByRole('button', { name: 'Notifications are on. Tap to turn them off.' }).click();
    await page.getByRole('button', { name: 'Notifications are off. Tap to turn them on.' }).waitFor();
  });

  it('a failed Turn on says why: the push service unreachable, or the browser blocking notifications', async () => {
    const failing = await newFanPhoneContext(browser, api);
    try {
      await failing.grantPermissions(['notifications'], { origin: api.url });
      // The browser's push service cannot be reached: subscribe() rejects as Chromium's does.
      await failing.addInitScript(() => {
        PushManager.prototype.subscribe = async () => {
          throw new DOMException('Registration failed - push service error', 'AbortError');
        };
        PushManager.prototype.getSubscription = async () => null;
      });
      const fan = await failing.newPage();
      await fan.goto(`/pwa/${creator.username}`);
      await waitForFanServiceWorker(fan);
      const box = fan.getByRole('textbox', { name: 'Message' });
      await box.fill('Do you ship to Canada?');
      await box.press('Enter');
      const offer = fan.getByRole('region', { name: 'Notifications' });
      await offer.getByRole('button', { name: 'Turn on' }).click();
      const alert = offer.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toBe(
        'Notifications could not be turned on: The browser’s push service could not be reached (AbortError: Registration failed - push service error). Check your connection, then try again.',
      );
      await saveFanScreenshot(fan, 'h6-push-failed-reason');

      // The browser answers "Block": the fan is told it is the browser, and how to allow them.
      await failing.clearPermissions();
      await fan.evaluate(() => {
        Notification.requestPermission = async () => 'denied';
      });
      await offer.getByRole('button', { name: 'Turn on' }).click();
      await offer.getByText('Notifications are blocked for this site in your browser settings.').waitFor();
      expect(await alert.textContent()).not.toContain('try again.');
    } finally {
      await failing.close();
    }
  });
});
