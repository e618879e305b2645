import { type FakeOpenAI, startFakeOpenAI } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, FanBrowser, json, onboard, startTestApp, type TestApp } from '../helpers.ts';
import { type StripeService, startStripeService } from '../support/stripe-service.ts';

// Issue 36, item 2: the payment provider stops knowing a creator's connected account (the
// platform's keys changed, the account was deleted, the local stand-in's state was wiped) or a
// fan's customer. Each side is told so, and what to do: the creator reconnects payouts; a fan is
// told the creator cannot take subscriptions now, a subscriber that the settings cannot open.

const PLAN = {
  enabled: true,
  monthlyCents: 3_000,
  yearlyCents: null,
  trialDays: 0,
  freeAnswers: 5,
  perks: 'Weekly plans',
  leadCapture: false,
};

class Fan extends FanBrowser {
  post(path: string, body: unknown) {
    return fetch(`${this.t.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.cookie ? { cookie: this.cookie } : {}) },
      body: JSON.stringify(body),
    });
  }
}

describe('a payout account or a customer the payment provider no longer knows', () => {
  let t: TestApp;
  let stripe: StripeService;
  let openai: FakeOpenAI;
  let cookie: string;

  const webhook = async (e: { payload: string; signature: string }) => {
    const res = await fetch(`${t.url}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': e.signature },
      body: e.payload,
    });
    expect(res.status).toBe(200);
  };
  const plan = async () =>
    (await json(await call(t, 'GET', '/api/creators/username/gone/fan-plan', cookie))) as {
      live: boolean;
      payouts: { connected: boolean; chargesEnabled: boolean; lost: boolean };
    };
  /** Connects payouts and finishes onboarding; the account's id. */
  const connect = async () => {
    const res = await call(t, 'POST', '/api/creators/username/gone/payouts/connect', cookie);
    expect(res.status).toBe(200);
    const { url } = (await res.json()) as { url: string };
    const accountId = /\/hosted\/setup\/(acct_[A-Za-z0-9]+)/.exec(url)?.[1];
    expect(accountId).toBeTruthy();
    await webhook(stripe.finishOnboarding(accountId!));
    return accountId!;
  };

  beforeAll(async () => {
    stripe = await startStripeService();
    openai = await startFakeOpenAI();
    t = await startTestApp({
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: openai.baseUrl },
      payments: {
        stripe: stripe.client,
        webhookSecret: stripe.webhookSecret,
        testCheckout: false,
        feePercent: 10,
      },
    });
    cookie = await onboard(t, 'gone');
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
    await openai?.close();
  });

  it('a fan subscribing is told the creator cannot take subscriptions now; the creator is told to reconnect, and reconnecting works', async () => {
    const first = await connect();
    expect((await call(t, 'PUT', '/api/creators/username/gone/fan-plan', cookie, PLAN)).status).toBe(200);
    expect(await plan()).toMatchObject({ live: true, payouts: { chargesEnabled: true, lost: false } });

    const fan = new Fan(t);
    expect((await fan.ask('gone', 'Hello, what do you coach?')).status).toBe(200);
    await t.background.idle();
    stripe.forgetAccount(first);

    // The fan presses Subscribe: not "could not start the checkout", but why, and what they can do.
    const res = await fan.post('/api/fan-subscriptions/checkout', { creator: 'gone', fanId: fan.fanId });
    expect(res.status).toBe(409);
    const body = (await res.json()) as { error: string; message: string };
    expect(body.error).toBe('payouts_need_reconnecting');
    expect(body.message).toMatch(/Gone Tester cannot take subscriptions right now/);
    expect(body.message).toMatch(/keep chatting/);

    // The creator's dashboard says the account is lost and offers to reconnect; fans meet no paywall meanwhile.
    expect(await plan()).toMatchObject({
      live: false,
      payouts: { connected: true, chargesEnabled: false, lost: true },
    });
    const earnings = (await json(await call(t, 'GET', '/api/creators/username/gone/earnings', cookie))) as {
      payoutsNote: string | null;
    };
    expect(earnings.payoutsNote).toMatch(/no longer knows your payout account.*Reconnect payouts/);
    const again = await fan.post('/api/fan-subscriptions/checkout', { creator: 'gone', fanId: fan.fanId });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: string }).error).toBe('payouts_need_reconnecting');

    // Reconnecting makes a new account, and the plan is live again once Stripe enables it.
    const second = await connect();
    expect(second).not.toBe(first);
    expect(await plan()).toMatchObject({ live: true, payouts: { chargesEnabled: true, lost: false } });
    const checkout = await fan.post('/api/fan-subscriptions/checkout', { creator: 'gone', fanId: fan.fanId });
    expect(checkout.status).toBe(200);
    const session = stripe.calls
      .filter((c) => c.path === '/v1/checkout/sessions' && c.method === 'POST')
      .at(-1);
    expect(session?.account).toBe(second);
  });

  it('the dashboard notices a lost account on its own (reading the account back), before any fan trips on it', async () => {
    const current = (await json(await call(t, 'GET', '/api/creators/username/gone/fan-plan', cookie))) as {
      payouts: { lost: boolean };
    };
    expect(current.payouts.lost).toBe(false);
    const accountId = [...stripe.accounts.keys()].at(-1)!;
    stripe.forgetAccount(accountId);
    expect(await plan()).toMatchObject({ live: false, payouts: { lost: true, chargesEnabled: false } });
    await connect();
    expect(await plan()).toMatchObject({ live: true, payouts: { lost: false } });
  });

  it('a subscriber whose customer or creator account Stripe forgot is told so by Manage subscription', async () => {
    const fan = new Fan(t);
    expect((await fan.ask('gone', 'Hi there')).status).toBe(200);
    await t.background.idle();
    const res = await fan.post('/api/fan-subscriptions/checkout', { creator: 'gone', fanId: fan.fanId });
    expect(res.status).toBe(200);
    const sessionId = /\/hosted\/c\/pay\/(cs_test_[a-f0-9]+)/.exec(
      ((await res.json()) as { url: string }).url,
    )?.[1];
    const paid = stripe.payCheckout(sessionId!, 'sub@example.com');
    for (const e of paid.events) await webhook(e);
    const customer = stripe.subscriptions.get(paid.subscriptionId)?.customer as string;
    expect(customer).toBeTruthy();

    stripe.forgetCustomer(customer);
    const portal = await fan.post('/api/fan-subscriptions/portal', { creator: 'gone', fanId: fan.fanId });
    expect(portal.status).toBe(409);
    const unknown = (await portal.json()) as { error: string; message: string };
    expect(unknown.error).toBe('subscription_unknown');
    expect(unknown.message).toMatch(/no longer has a record of your subscription to Gone Tester/);

    stripe.forgetAccount([...stripe.accounts.keys()].at(-1)!);
    const lost = await fan.post('/api/fan-subscriptions/portal', { creator: 'gone', fanId: fan.fanId });
    expect(lost.status).toBe(409);
    const words = (await lost.json()) as { error: string; message: string };
    expect(words.error).toBe('payouts_need_reconnecting');
    expect(words.message).toMatch(
      /Gone Tester's payment account needs to be reconnected. Your access is unchanged/,
    );
  });
});
