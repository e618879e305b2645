import { type StripeService, startStripeService } from '@fanpilot/testkit';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshot } from './helpers/browser.ts';

/**
 * Issue 36 item 9c: the loopback Stripe's hosted test pages (onboarding, Checkout, the portal) are
 * sized for a phone: a viewport, one column that fits 390 px, fields and buttons a thumb can hit.
 */
describe("the local Stripe's hosted pages on a phone", () => {
  let stripe: StripeService;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    stripe = await startStripeService();
    browser = await launchChromium();
    context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
  }, 120_000);
  afterAll(async () => {
    await context?.close().catch(() => {});
    await browser?.close();
    await stripe?.close();
  });

  it('onboarding, Checkout and the portal fit 390×844 with full-width, 44 px controls', async () => {
    const account = await stripe.client.accounts.create({ type: 'express' });
    const link = await stripe.client.accountLinks.create({
      account: account.id,
      type: 'account_onboarding',
      refresh_url: 'http://127.0.0.1:1/refresh',
      return_url: 'http://127.0.0.1:1/return',
    });
    const session = await stripe.client.checkout.sessions.create(
      {
        mode: 'subscription',
        customer_email: 'a.very.long.fan.address@example.com',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: 900,
              recurring: { interval: 'month' },
              product_data: { name: 'Supporter' },
            },
          },
        ],
        success_url: 'http://127.0.0.1:1/ok',
        cancel_url: 'http://127.0.0.1:1/cancel',
      },
      { stripeAccount: account.id },
    );
    const { subscriptionId } = stripe.payCheckout(session.id, 'fan@example.com');
    const customer = String(stripe.subscriptions.get(subscriptionId)!.customer);
    const portal = await stripe.client.billingPortal.sessions.create(
      { customer, return_url: 'http://127.0.0.1:1/back' },
      { stripeAccount: account.id },
    );

    const page = await context.newPage();
    for (const [url, heading, name] of [
      [link.url, 'Set up payouts', 'h6-stripe-onboarding-390x844'],
      [session.url!, 'Checkout', 'h6-stripe-checkout-390x844'],
      [portal.url, 'Manage subscription', 'h6-stripe-portal-390x844'],
    ] as const) {
      await page.goto(url);
      await page.getByRole('heading', { name: heading }).waitFor();
      const layout = await page.evaluate(() => ({
        // Without a viewport, a phone lays the page out 980 px wide and shrinks it.
        innerWidth: window.innerWidth,
        scrollWidth: document.documentElement.scrollWidth,
        viewport: document.querySelector('meta[name="viewport"]')?.getAttribute('content') ?? null,
      }));
      expect(layout.viewport, heading).toContain('width=device-width');
      expect(layout.innerWidth, heading).toBe(390);
      expect(layout.scrollWidth, heading).toBeLessThanOrEqual(390);
      const button = (await page.getByRole('button').first().boundingBox())!;
      expect(button.height, heading).toBeGreaterThanOrEqual(44);
      expect(button.width, heading).toBeGreaterThanOrEqual(390 - 2 * 16 - 1);
      const fontSize = await page
        .getByRole('button')
        .first()
        .evaluate((el) => getComputedStyle(el).fontSize);
      expect(fontSize, heading).toBe('16px');
      await screenshot(page, name);
    }
    await page.goto(session.url!);
    const email = (await page.getByLabel('Email').boundingBox())!;
    expect(email.height).toBeGreaterThanOrEqual(44);
    expect(email.width).toBeGreaterThanOrEqual(390 - 2 * 16 - 1);
  });
});
