import {
  type SmtpService,
  type StripeService,
  startSmtpService,
  startStripeService,
} from '@fanpilot/testkit';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FanFakeAi, startFanFakeAi } from './fan-helpers.ts';
import { launchChromium, screenshot, signUpInBrowser } from './helpers/browser.ts';
import { type RunningApi, startApi } from './helpers/server.ts';

/**
 * Fans pay their creator (issue 26), in Chromium against the built api, the real `stripe` client
 * talking to the loopback Stripe (whose hosted pages play onboarding, Checkout and the portal) and
 * mail going through a loopback SMTP server: a creator connects payouts and sets a plan; a fan
 * spends the free allowance, meets the plan card, subscribes, is unlocked at once, restores the
 * subscription on a second browser by the emailed link, and cancels; the creator sees earnings.
 * Screenshots of each step go to tests/e2e/test-results/subscriptions-*.png.
 */

const USERNAME = 'creator';
const SLOW = 180_000;
const PHONE = { width: 390, height: 844 };

describe('fans pay their creator', () => {
  let stripe: StripeService;
  let smtp: SmtpService;
  let ai: FanFakeAi;
  let api: RunningApi;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    stripe = await startStripeService();
    smtp = await startSmtpService();
    ai = await startFanFakeAi('Sourdough loves a slow, cool rise.');
    api = await startApi({
      env: {
        REDIS_URL: undefined,
        DATABASE_URL: undefined,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: ai.baseUrl,
        EMBEDDINGS: 'off',
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
        STRIPE_API_BASE: stripe.url,
        SMTP_URL: smtp.url,
        PLATFORM_FEE_PERCENT: '10',
      },
    });
    stripe.deliverTo(`${api.origin}/api/stripe/webhook`);
    browser = await launchChromium();
  }, SLOW);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await api?.stop();
    await ai?.stop();
    await smtp?.close();
    await stripe?.close();
  });

  const newContext = async (viewport: { width: number; height: number }) => {
    const context = await browser.newContext({ baseURL: api.origin, viewport, locale: 'en-US' });
    contexts.push(context);
    return context;
  };
  const ask = async (fan: Page, text: string) => {
    await fan.getByRole('textbox', { name: 'Message' }).fill(text);
    await fan.getByRole('button', { name: 'Send message' }).click();
  };

  it(
    'creator onboarding to payouts, a fan spending the allowance, subscribing, restoring on a second browser, cancelling',
    async () => {
      // ---- the creator: sign up, connect payouts, set a plan ---------------------------------
      const creator = await (await newContext({ width: 1440, height: 900 })).newPage();
      await signUpInBrowser(creator, api.origin, USERNAME, 'Crumb');
      await creator.getByRole('button', { name: 'Fans & Earnings' }).first().click();
      await creator.getByRole('heading', { name: 'Fans & Earnings', level: 1 }).waitFor();
      await creator.getByText('Connect a Stripe account to get paid by your fans.').waitFor();
      await screenshot(creator, 'subscriptions-1-creator-connect');
      await creator.getByRole('button', { name: 'Connect payouts' }).click();
      await creator.getByRole('heading', { name: 'Set up payouts' }).waitFor();
      await creator.getByRole('button', { name: 'Finish onboarding' }).click();
      await creator.waitForURL(`${api.origin}/dashboard/${USERNAME}`);
      await creator.getByText('Payouts enabled: fans can subscribe.').waitFor();
      await creator.getByRole('button', { name: '$49.00' }).click();
      await creator.getByLabel('Free AI answers per fan per month').fill('2');
      await creator.getByLabel('What subscribers get').fill('Unlimited answers and a weekly bake plan.');
      await creator.getByRole('button', { name: 'Save plan' }).click();
      await creator.getByText('Plan saved').first().waitFor();
      await screenshot(creator, 'subscriptions-2-creator-plan', true);

      // ---- a fan: two free answers, then the plan card ----------------------------------------
      const fan = await (await newContext(PHONE)).newPage();
      await fan.goto(`/pwa/${USERNAME}`);
      await ask(fan, 'How long should sourdough rise?');
      await fan.getByText('Sourdough loves a slow, cool rise.').first().waitFor();
      await fan.getByTestId('free-answers-left').getByText('1 free answer left this month').waitFor();
      await screenshot(fan, 'subscriptions-3-fan-free-answers-left');
      await ask(fan, 'And at what temperature?');
      await fan.getByText('Sourdough loves a slow, cool rise.').nth(1).waitFor();
      const card = fan.getByTestId('plan-card');
      await card.getByRole('heading', { name: 'Keep chatting with Local Creator' }).waitFor();
      await card.getByText('Unlimited answers and a weekly bake plan.').waitFor();
      await screenshot(fan, 'subscriptions-4-fan-paywall');
      // Past the allowance the AI does not answer (the creator still can).
      await ask(fan, 'One more question?');
      await fan.getByText('One more question?').waitFor();

      // ---- subscribe through Checkout; unlocked on return, the waiting question answered ------
      await card.getByRole('button', { name: /Subscribe · \$49 \/ month/ }).click();
      await fan.getByRole('heading', { name: 'Checkout' }).waitFor();
      await fan.getByLabel('Email').fill('fan@example.com');
      await screenshot(fan, 'subscriptions-5-checkout');
      await fan.getByRole('button', { name: 'Pay' }).click();
      await fan.waitForURL(new RegExp(`/pwa/${USERNAME}`));
      await fan
        .getByTestId('subscription-state')
        .getByText(/You are subscribed|Subscribed/)
        .waitFor();
      await fan.getByText('Sourdough loves a slow, cool rise.').nth(2).waitFor();
      await screenshot(fan, 'subscriptions-6-fan-unlocked');
      const checkout = stripe.calls.find((c) => c.path === '/v1/checkout/sessions')!;
      expect(checkout.form['subscription_data[application_fee_percent]']).toBe('10');

      // ---- a second browser: restore by the emailed one-time link -----------------------------
      const phone = await (await newContext(PHONE)).newPage();
      await phone.goto(`/pwa/${USERNAME}`);
      await phone.getByRole('button', { name: 'Already subscribed on another device?' }).click();
      await phone.getByPlaceholder('you@example.com').fill('fan@example.com');
      await phone.getByRole('button', { name: 'Send me a link' }).click();
      await phone.getByText(/a link to restore it is on its way/).waitFor();
      const mail = await smtp.waitFor((m) => m.to.includes('fan@example.com'));
      const link = /(http:\/\/\S+#restore=[A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
      expect(link).toBeTruthy();
      // The mail's link opens in a new tab of this browser, as a mail reader opens it.
      await phone.close();
      const restored = await contexts.at(-1)!.newPage();
      await restored.goto(link!);
      await restored.getByText('How long should sourdough rise?').waitFor();
      await restored.getByTestId('subscription-state').getByText('Subscribed').waitFor();
      await screenshot(restored, 'subscriptions-7-restored-on-second-browser');

      // ---- cancel in the customer portal: access to the period's end ---------------------------
      await restored.getByRole('button', { name: 'Manage subscription' }).click();
      await restored.getByRole('heading', { name: 'Manage subscription' }).waitFor();
      await restored.getByRole('button', { name: 'Cancel subscription' }).click();
      await restored.waitForURL(new RegExp(`/pwa/${USERNAME}`));
      await restored.getByText(/Your subscription ends on/).waitFor();
      await screenshot(restored, 'subscriptions-8-cancelled-to-period-end');

      // ---- the creator's earnings and the inbox mark ------------------------------------------
      const account = [...stripe.accounts.keys()][0]!;
      stripe.addPayout(account, 4_410);
      await creator.reload();
      await creator.getByRole('button', { name: 'Fans & Earnings' }).first().click();
      await creator.getByTestId('earnings-subscribers').getByText('1').waitFor();
      await creator
        .getByTestId('earnings-conversion')
        .getByText(/^100% · 1 of 1 fans/)
        .waitFor();
      await creator.getByTestId('payouts-list').getByText('$44.10 · paid').waitFor();
      await screenshot(creator, 'subscriptions-9-creator-earnings', true);
      await creator.getByRole('button', { name: 'Chat Management' }).first().click();
      await creator.getByText('Subscriber', { exact: true }).first().waitFor();
      await screenshot(creator, 'subscriptions-10-inbox-subscriber');
    },
    SLOW,
  );
});
