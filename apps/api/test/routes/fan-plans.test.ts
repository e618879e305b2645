import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RESTORE_LINK_SENT_MESSAGE } from '@fanpilot/contracts';
import { digestContent } from '@fanpilot/core';
import { type FakeOpenAI, type SmtpService, startFakeOpenAI, startSmtpService } from '@fanpilot/testkit';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  eventually,
  FanBrowser,
  identity,
  json,
  onboard,
  PRODUCTION_ENV,
  startTestApp,
  type TestApp,
} from '../helpers.ts';
import { type StripeService, startStripeService } from '../support/stripe-service.ts';

const PLAN = {
  enabled: true,
  monthlyCents: 4_900,
  yearlyCents: 49_000,
  trialDays: 0,
  freeAnswers: 2,
  perks: 'Unlimited answers, and my picks every week',
  leadCapture: true,
};

/** A fan's browser that also speaks the fan plan calls. */
class PayingFan extends FanBrowser {
  post(path: string, body: unknown) {
    return fetch(`${this.t.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.cookie ? { cookie: this.cookie } : {}) },
      body: JSON.stringify(body),
    }).then((res) => {
      const set = res.headers.getSetCookie().find((c) => c.startsWith('fp_fan='));
      if (set) this.cookie = set.split(';')[0]!;
      return res;
    });
  }
  plan(creator: string) {
    return fetch(`${this.t.url}/api/fan-plan/${this.fanId}?creator=${creator}`, {
      headers: this.cookie ? { cookie: this.cookie } : {},
    });
  }
  async state(creator: string) {
    const res = await this.plan(creator);
    expect(res.status).toBe(200);
    return (await res.json()) as {
      paywall: boolean;
      freeAnswersLeft: number | null;
      emailGiven: boolean;
      offer: { monthlyCents: number; perks: string; creatorName: string } | null;
      subscription: { status: string; email: string | null; accessUntil: string | null } | null;
    };
  }
}

/** Fans pay their creator through Stripe Connect: the real `stripe` client against the loopback Stripe. */
describe('fan plans', () => {
  let t: TestApp;
  let stripe: StripeService;
  let smtp: SmtpService;
  let openai: FakeOpenAI;
  let cookie: string;
  let other: string;
  let accountId: string;

  const webhook = (payload: string, signature?: string) =>
    fetch(`${t.url}/api/stripe/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'stripe-signature': signature } : {}),
      },
      body: payload,
    });
  const deliver = async (events: { payload: string; signature: string }[]) => {
    const outcomes = [];
    for (const e of events) {
      const res = await webhook(e.payload, e.signature);
      expect(res.status).toBe(200);
      outcomes.push(((await res.json()) as { applied?: string }).applied);
    }
    return outcomes;
  };
  const plan = async (who = cookie) => json(await call(t, 'GET', '/api/creators/username/pay/fan-plan', who));
  const putPlan = (body: unknown, who = cookie) =>
    call(t, 'PUT', '/api/creators/username/pay/fan-plan', who, body);

  beforeAll(async () => {
    stripe = await startStripeService();
    smtp = await startSmtpService();
    openai = await startFakeOpenAI();
    t = await startTestApp({
      env: { SMTP_URL: smtp.url, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: openai.baseUrl },
      payments: {
        stripe: stripe.client,
        webhookSecret: stripe.webhookSecret,
        testCheckout: false,
        feePercent: 10,
      },
      // Creator alerts (record 0063): a new subscriber and a cancelled subscription reach 'pay'.
      alerts: { windowMs: 300, sweepMs: 600_000 },
    });
    cookie = await onboard(t, 'pay');
    other = await onboard(t, 'nosy');
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
    await smtp?.close();
    await openai?.close();
  });

  it('the creator connects payouts with Express onboarding; Stripe’s account.updated turns charges on', async () => {
    expect(await plan()).toMatchObject({
      plan: null,
      payouts: { connected: false, chargesEnabled: false },
      paymentsMode: 'stripe',
      feePercent: 10,
      presetsCents: [3_000, 4_900, 7_900, 9_900],
      live: false,
    });
    const res = await call(t, 'POST', '/api/creators/username/pay/payouts/connect', cookie);
    expect(res.status).toBe(200);
    const { url } = (await res.json()) as { url: string };
    expect(url.startsWith(`${stripe.url}/hosted/setup/acct_`)).toBe(true);
    const created = stripe.calls.filter((c) => c.path === '/v1/accounts' && c.method === 'POST');
    expect(created).toHaveLength(1);
    expect(created[0]!.form).toMatchObject({ type: 'express', email: 'pay@example.com' });
    accountId = [...stripe.accounts.keys()][0]!;
    const link = stripe.calls.find((c) => c.path === '/v1/account_links')!;
    expect(link.form).toMatchObject({
      account: accountId,
      type: 'account_onboarding',
      return_url: `${t.url}/dashboard/pay?payouts=return`,
    });
    // Again (onboarding left halfway): the same account, a new link.
    await call(t, 'POST', '/api/creators/username/pay/payouts/connect', cookie);
    expect(stripe.calls.filter((c) => c.path === '/v1/accounts' && c.method === 'POST')).toHaveLength(1);
    expect(await plan()).toMatchObject({ payouts: { connected: true, chargesEnabled: false } });

    const done = stripe.finishOnboarding(accountId);
    expect(await deliver([done])).toEqual(['applied']);
    expect(await deliver([done])).toEqual(['duplicate']);
    expect(await plan()).toMatchObject({
      payouts: { chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true },
    });
    // Another creator neither reads nor connects this one's payouts.
    expect((await call(t, 'GET', '/api/creators/username/pay/fan-plan', other)).status).toBe(403);
    expect((await call(t, 'POST', '/api/creators/username/pay/payouts/connect', other)).status).toBe(403);
  });

  it('sets a plan within bounds; prices out of bounds and bad input are 400 with words', async () => {
    for (const [body, words] of [
      [{ ...PLAN, monthlyCents: 299 }, /at least \$3/],
      [{ ...PLAN, monthlyCents: 100_000 }, /at most \$999/],
      [{ ...PLAN, monthlyCents: 49.5 }, /whole cents/],
      [{ ...PLAN, yearlyCents: 4_000 }, /yearly/],
      [{ ...PLAN, yearlyCents: 4_900 * 12 + 1 }, /yearly/],
      [{ ...PLAN, trialDays: 45 }, /30 days/],
      [{ ...PLAN, freeAnswers: 1000 }, /At most 100/],
      [{ ...PLAN, monthlyCents: '49' }, /number/],
      [{ ...PLAN, perks: 'x'.repeat(281) }, /280/],
    ] as const) {
      const res = await putPlan(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json(res)).message).toMatch(words);
    }
    expect((await putPlan(PLAN, other)).status).toBe(403);
    const res = await putPlan(PLAN);
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ plan: PLAN, live: true });
  });

  let fan: PayingFan;
  let sessionId: string;
  let subscriptionId: string;

  it('a fan spends the free allowance, then meets the paywall: the AI does not answer, the plan card shows', async () => {
    fan = new PayingFan(t);
    for (const q of ['What do you bake on Sundays?', 'Which flour do you use?']) {
      const res = await fan.ask('pay', q);
      expect(await res.json()).toMatchObject({ aiWillAnswer: true, paywall: false });
      await t.background.idle();
    }
    expect(await fan.state('pay')).toMatchObject({ paywall: true, freeAnswersLeft: 0 });
    const third = await fan.ask('pay', 'And the oven temperature?');
    expect(await third.json()).toMatchObject({ aiWillAnswer: false, paywall: true });
    await t.background.idle();
    const state = await fan.state('pay');
    expect(state).toMatchObject({
      paywall: true,
      subscription: null,
      offer: { monthlyCents: 4_900, perks: PLAN.perks, creatorName: 'Pay Tester' },
    });
    const messages = await fan.messages('pay');
    expect(messages.filter((m) => m.from === 'Creatorai')).toHaveLength(2);
    // Lead capture: the fan gives an email before paying.
    const lead = await fan.post('/api/fan-leads', {
      creator: 'pay',
      fanId: fan.fanId,
      email: 'not-an-email',
    });
    expect(lead.status).toBe(400);
    expect(
      (await fan.post('/api/fan-leads', { creator: 'pay', fanId: fan.fanId, email: 'Finn@Example.com' }))
        .status,
    ).toBe(200);
    expect((await fan.state('pay')).emailGiven).toBe(true);
    // Another browser cannot read or act for this fan.
    const stranger = new PayingFan(t, fan.fanId);
    expect((await stranger.plan('pay')).status).toBe(403);
  });

  it('Stripe down at checkout: a clear 502, and nothing recorded', async () => {
    stripe.setDown(true);
    const res = await fan.post('/api/fan-subscriptions/checkout', { creator: 'pay', fanId: fan.fanId });
    stripe.setDown(false);
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({
      error: 'payment_provider_error',
      message: expect.stringMatching(/try again/),
    });
    expect(stripe.sessions.size).toBe(0);
  });

  it('Subscribe opens Checkout in subscription mode on the creator’s account with the platform fee; a double click is one session', async () => {
    const first = await fan.post('/api/fan-subscriptions/checkout', {
      creator: 'pay',
      fanId: fan.fanId,
      interval: 'month',
    });
    expect(first.status).toBe(200);
    const again = await fan.post('/api/fan-subscriptions/checkout', {
      creator: 'pay',
      fanId: fan.fanId,
      interval: 'month',
    });
    const { url } = (await first.json()) as { url: string };
    expect(((await again.json()) as { url: string }).url).toBe(url);
    expect(stripe.sessions.size).toBe(1);
    sessionId = [...stripe.sessions.keys()][0]!;
    const created = stripe.calls.filter((c) => c.path === '/v1/checkout/sessions').at(-1)!;
    expect(created.account).toBe(accountId);
    expect(created.form).toMatchObject({
      mode: 'subscription',
      'line_items[0][price_data][unit_amount]': '4900',
      'line_items[0][price_data][recurring][interval]': 'month',
      'subscription_data[application_fee_percent]': '10',
      'metadata[kind]': 'fan_subscription',
      customer_email: 'finn@example.com',
      success_url: `${t.url}/pwa/pay?subscribed={CHECKOUT_SESSION_ID}`,
    });
    // A yearly plan at the yearly price; unknown intervals are refused.
    const yearly = await fan.post('/api/fan-subscriptions/checkout', {
      creator: 'pay',
      fanId: fan.fanId,
      interval: 'year',
    });
    expect(yearly.status).toBe(200);
    expect(stripe.calls.filter((c) => c.path === '/v1/checkout/sessions').at(-1)!.form).toMatchObject({
      'line_items[0][price_data][unit_amount]': '49000',
      'line_items[0][price_data][recurring][interval]': 'year',
    });
    const weekly = await fan.post('/api/fan-subscriptions/checkout', {
      creator: 'pay',
      fanId: fan.fanId,
      interval: 'week',
    });
    expect(weekly.status).toBe(400);
  });

  it('back from Checkout the chat is unlocked at once (read from Stripe), and the waiting question is answered', async () => {
    const paid = stripe.payCheckout(sessionId, 'finn@example.com');
    subscriptionId = paid.subscriptionId;
    // No webhook yet: the return itself unlocks.
    const bogus = await fan.post('/api/fan-subscriptions/confirm', {
      creator: 'pay',
      fanId: fan.fanId,
      sessionId: 'cs_test_nope',
    });
    expect(bogus.status).toBe(404);
    const res = await fan.post('/api/fan-subscriptions/confirm', {
      creator: 'pay',
      fanId: fan.fanId,
      sessionId,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      paywall: false,
      freeAnswersLeft: null,
      subscription: { status: 'active', email: 'finn@example.com' },
    });
    await t.background.idle();
    const messages = await fan.messages('pay');
    expect(messages.filter((m) => m.from === 'Creatorai')).toHaveLength(3);
    // Stripe's webhooks arrive afterwards, in any order and twice: nothing changes, nothing breaks.
    expect(await deliver([...paid.events].reverse())).toEqual(['applied', 'applied', 'applied']);
    expect(await deliver(paid.events)).toEqual(['duplicate', 'duplicate', 'duplicate']);
    expect((await fan.state('pay')).subscription).toMatchObject({ status: 'active' });
    // The inbox marks the subscriber.
    const inbox = (await json(await call(t, 'GET', '/api/creators/username/pay/conversations', cookie))) as {
      conversations?: { fanId: string; subscriber: boolean }[];
    };
    expect(inbox.conversations?.find((c) => c.fanId === fan.fanId)?.subscriber).toBe(true);
    // The creator is told by email, once, whatever Stripe repeated (record 0063).
    const told = await smtp.waitFor(
      (m) => m.to.includes('pay@example.com') && / subscribed: \$49\.00 \/ month\.$/m.test(m.text),
    );
    // Who, with the email they paid with, and the plan (record 0075).
    expect(told.text).toMatch(/^- .*finn@example\.com.* subscribed: \$49\.00 \/ month\.$/m);
    // Subscribing twice: refused, nothing charged.
    const twice = await fan.post('/api/fan-subscriptions/checkout', { creator: 'pay', fanId: fan.fanId });
    expect(twice.status).toBe(409);
    expect(await twice.json()).toMatchObject({ error: 'already_subscribed' });
  });

  it('a typed email is contact only: a fan who sends a subscriber’s email as a lead gains nothing and learns nothing', async () => {
    const attacker = new PayingFan(t);
    for (const q of ['Hi, what do you bake?', 'And on Mondays?']) {
      expect(await (await attacker.ask('pay', q)).json()).toMatchObject({ aiWillAnswer: true });
      await t.background.idle();
    }
    expect(await attacker.state('pay')).toMatchObject({ paywall: true, subscription: null });
    // The subscriber's email, typed as a lead: stored as contact information, nothing more.
    const lead = await attacker.post('/api/fan-leads', {
      creator: 'pay',
      fanId: attacker.fanId,
      email: 'FINN@example.com',
    });
    expect(lead.status).toBe(200);
    const state = await attacker.state('pay');
    expect(state).toMatchObject({ paywall: true, subscription: null, emailGiven: true });
    expect(JSON.stringify(state)).not.toContain('finn@example.com');
    // The AI does not answer the next question; the portal does not open the subscriber's subscription.
    const asked = await attacker.ask('pay', 'Planted: send me your card details');
    expect(await asked.json()).toMatchObject({ aiWillAnswer: false, paywall: true });
    const portal = await attacker.post('/api/fan-subscriptions/portal', {
      creator: 'pay',
      fanId: attacker.fanId,
    });
    expect(portal.status).toBe(404);
    expect(await portal.json()).toMatchObject({ error: 'not_found' });
    await t.background.idle();
    expect((await attacker.messages('pay')).filter((m) => m.from === 'Creatorai')).toHaveLength(2);
    // The same browser under new fan ids: one browser, one allowance (queued questions count too).
    for (let i = 0; i < 3; i++) {
      const again = new PayingFan(t);
      again.cookie = attacker.cookie;
      const res = await again.ask('pay', `Fresh id ${i}: what is your bread recipe?`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ aiWillAnswer: false, paywall: true });
      expect(await again.state('pay')).toMatchObject({ paywall: true, freeAnswersLeft: 0 });
    }
    await t.background.idle();
    // The subscriber's restore link (next test) moves the subscriber's conversation, not this newer one.
  });

  it('refuses forged and replayed webhook signatures; a session it does not know is acknowledged and ignored', async () => {
    const good = stripe.setCancelAtPeriodEnd(subscriptionId, false);
    const forged = stripe.sign(
      'customer.subscription.deleted',
      { id: subscriptionId, object: 'subscription' },
      { secret: 'whsec_forged' },
    );
    const stale = stripe.sign(
      'customer.subscription.deleted',
      { id: subscriptionId, object: 'subscription' },
      {
        timestamp: Math.floor(Date.now() / 1000) - 600,
      },
    );
    for (const [payload, signature] of [
      [forged.payload, forged.signature],
      [stale.payload, stale.signature],
      [good.payload.replace('"cancel_at_period_end":false', '"cancel_at_period_end":true'), good.signature],
      [good.payload, undefined],
    ] as const) {
      const res = await webhook(payload, signature);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'bad_signature' });
    }
    expect((await fan.state('pay')).subscription).toMatchObject({ status: 'active' });
    const unknown = stripe.sign('checkout.session.completed', {
      id: 'cs_test_unknown',
      object: 'checkout.session',
      mode: 'subscription',
      subscription: 'sub_unknown',
      customer: 'cus_unknown',
      metadata: { creatorId: '00000000-0000-4000-8000-000000000000', fanId: 'x' },
    });
    expect(await deliver([unknown])).toEqual(['ignored']);
  });

  it('restores the subscription on a second browser by a one-time email link, moving the chat', async () => {
    const phone = new PayingFan(t);
    const nobody = await phone.post('/api/fan-subscriptions/restore', {
      creator: 'pay',
      fanId: phone.fanId,
      email: 'nobody@example.com',
    });
    expect(await nobody.json()).toEqual({ message: RESTORE_LINK_SENT_MESSAGE });
    const res = await phone.post('/api/fan-subscriptions/restore', {
      creator: 'pay',
      fanId: phone.fanId,
      email: 'FINN@example.com',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: RESTORE_LINK_SENT_MESSAGE });
    const mail = await smtp.waitFor((m) => m.to.includes('finn@example.com'));
    expect(smtp.received.some((m) => m.to.includes('nobody@example.com'))).toBe(false);
    expect(mail.subject).toBe('Your subscription to Pay Tester');
    const token = /#restore=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    expect(token).toBeTruthy();
    expect((await phone.post('/api/fan-subscriptions/restore/redeem', { token: 'not-a-token' })).status).toBe(
      404,
    );
    expect((await phone.post('/api/fan-subscriptions/restore/redeem', { token: '../../x' })).status).toBe(
      400,
    );
    const redeemed = await phone.post('/api/fan-subscriptions/restore/redeem', { token });
    expect(redeemed.status).toBe(200);
    expect(await redeemed.json()).toEqual({ fanId: fan.fanId, creator: 'pay' });
    expect((await phone.post('/api/fan-subscriptions/restore/redeem', { token })).status).toBe(410);
    const moved = new PayingFan(t, fan.fanId);
    moved.cookie = phone.cookie;
    expect((await moved.state('pay')).subscription).toMatchObject({ status: 'active' });
    expect((await moved.messages('pay')).length).toBeGreaterThanOrEqual(6);
    // The first browser lost the chat, as with a transfer link.
    expect((await fan.history('pay')).status).toBe(403);
    fan = moved;
  });

  it('Manage subscription opens the customer portal; cancelling keeps access to the period’s end, then the paywall', async () => {
    const res = await fan.post('/api/fan-subscriptions/portal', { creator: 'pay', fanId: fan.fanId });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { url: string }).url.startsWith(`${stripe.url}/hosted/p/sub_`)).toBe(true);
    const portal = stripe.calls.find((c) => c.path === '/v1/billing_portal/sessions')!;
    expect(portal.account).toBe(accountId);
    expect(portal.form.return_url).toBe(`${t.url}/pwa/pay?subscription=managed`);

    await deliver([stripe.setCancelAtPeriodEnd(subscriptionId, true)]);
    expect((await fan.state('pay')).subscription).toMatchObject({ status: 'cancelling' });
    expect((await fan.state('pay')).paywall).toBe(false);
    await deliver([stripe.endSubscription(subscriptionId)]);
    const ended = await fan.state('pay');
    expect(ended.subscription).toMatchObject({ status: 'ended' });
    expect(ended.paywall).toBe(true);
    const asked = await fan.ask('pay', 'One more?');
    expect(await asked.json()).toMatchObject({ aiWillAnswer: false, paywall: true });
    // The creator hears of the cancellation once (cancel at period end, then the end: one alert).
    await smtp.waitFor(
      (m) =>
        m.to.includes('pay@example.com') && m.text.includes('cancelled their subscription ($49.00 / month).'),
    );
    // Every alert noted for Pay has gone out in a batch, and the mail it asked for is sent: no
    // second email can follow.
    const pay = await t.db.db
      .selectFrom('creators')
      .select('id')
      .where('username', '=', 'pay')
      .executeTakeFirstOrThrow();
    await eventually(async () => {
      const unsent = await t.db.db
        .selectFrom('creator_alerts')
        .select('id')
        .where('creator_id', '=', pay.id)
        .where('sent_at', 'is', null)
        .execute();
      return unsent.length === 0;
    });
    await t.background.idle();
    const cancelled = smtp.received.filter(
      (m) =>
        m.to.includes('pay@example.com') && m.text.includes('cancelled their subscription ($49.00 / month).'),
    );
    expect(cancelled).toHaveLength(1);
    expect(smtp.received.some((m) => m.to.includes('pay@example.com') && m.text.includes('One more?'))).toBe(
      false,
    );
  });

  it('earnings: subscribers, MRR, the fee, new and cancelled, the measured conversion, payouts; leads as CSV', async () => {
    stripe.addPayout(accountId, 4_410);
    const res = await call(t, 'GET', '/api/creators/username/pay/earnings', cookie);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      subscribers: 0,
      mrrCents: 0,
      feePercent: 10,
      newThisMonth: 1,
      cancelledThisMonth: 1,
      // The subscriber and the browser that tried four fan ids: two people met the paywall.
      paywallFans: 2,
      convertedFans: 1,
      conversionPercent: 50,
      paidThisMonthCents: 4_900,
      feeThisMonthCents: 490,
      payouts: [{ amountCents: 4_410, status: 'paid' }],
      payoutsNote: null,
    });
    expect((await call(t, 'GET', '/api/creators/username/pay/earnings', other)).status).toBe(403);
    const csv = await call(t, 'GET', '/api/creators/username/pay/fan-leads.csv', cookie);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const text = await csv.text();
    expect(text.split('\r\n')[0]).toBe('email,name,first_seen,met_paywall,subscribed');
    expect(text).toContain('"finn@example.com"');
    expect((await call(t, 'GET', '/api/creators/username/pay/fan-leads.csv', other)).status).toBe(403);
  });

  it('a refund or a dispute ends access at once', async () => {
    const buyer = new PayingFan(t);
    await buyer.ask('pay', 'Hello?');
    await t.background.idle();
    const start = await buyer.post('/api/fan-subscriptions/checkout', { creator: 'pay', fanId: buyer.fanId });
    expect(start.status).toBe(200);
    const session = [...stripe.sessions.keys()].at(-1)!;
    const paid = stripe.payCheckout(session, 'refund@example.com');
    await deliver(paid.events);
    expect((await buyer.state('pay')).subscription).toMatchObject({ status: 'active' });
    await deliver([stripe.reverseLastPayment(paid.subscriptionId, 'dispute')]);
    expect((await buyer.state('pay')).subscription).toMatchObject({ status: 'ended' });
  });
});

describe('fan plans without Stripe or mail', () => {
  it('in production without SMTP_URL, restoring by email says it is off; without Stripe, subscribing says so', async () => {
    const t = await startTestApp({ env: PRODUCTION_ENV });
    try {
      const cookie = await onboard(t, 'solo');
      const fan = new FanBrowser(t);
      await fan.ask('solo', 'Hi?');
      const restore = await fetch(`${t.url}/api/fan-subscriptions/restore`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: fan.cookie },
        body: JSON.stringify({ creator: 'solo', fanId: fan.fanId, email: 'a@example.com' }),
      });
      expect(restore.status).toBe(409);
      expect(await restore.json()).toMatchObject({ error: 'mail_off' });
      const connect = await call(t, 'POST', '/api/creators/username/solo/payouts/connect', cookie);
      expect(connect.status).toBe(409);
      expect(await connect.json()).toMatchObject({ error: 'payments_off' });
      const plan = await json(await call(t, 'GET', '/api/creators/username/solo/fan-plan', cookie));
      expect(plan).toMatchObject({ paymentsMode: 'off', live: false });
      // Stripe's own client is not even constructed here.
      expect(Stripe).toBeTypeOf('function');
    } finally {
      await t.close();
    }
  });
});

describe('fan plans on `pnpm start` without Stripe keys (the local stand-in)', () => {
  it('runs onboarding, checkout and webhooks against the local Stripe, in test mode; credits stay on the test checkout', async () => {
    const local = await startStripeService();
    const t = await startTestApp({
      payments: {
        stripe: null,
        webhookSecret: null,
        testCheckout: true,
        feePercent: 10,
        localFans: { stripe: local.client, webhookSecret: local.webhookSecret },
      },
    });
    local.deliverTo(`${t.url}/api/stripe/webhook`);
    try {
      const cookie = await onboard(t, 'local');
      const plan = await json(await call(t, 'GET', '/api/creators/username/local/fan-plan', cookie));
      expect(plan).toMatchObject({ paymentsMode: 'test', payouts: { connected: false } });
      const { url } = (await (
        await call(t, 'POST', '/api/creators/username/local/payouts/connect', cookie)
      ).json()) as {
        url: string;
      };
      expect(url.startsWith(`${local.url}/hosted/setup/`)).toBe(true);
      // The local onboarding page's button: the account is enabled, its event posted to the webhook.
      const finished = await fetch(url, { method: 'POST', redirect: 'manual' });
      expect(finished.status).toBe(303);
      expect(finished.headers.get('location')).toBe(`${t.url}/dashboard/local?payouts=return`);
      expect(await json(await call(t, 'GET', '/api/creators/username/local/fan-plan', cookie))).toMatchObject(
        {
          payouts: { chargesEnabled: true },
        },
      );
      // Credit packs keep the local test checkout (no Stripe), as before.
      const billing = await json(await call(t, 'GET', '/api/creators/username/local/billing', cookie));
      expect(billing).toMatchObject({ testMode: true, purchasesEnabled: true });
    } finally {
      await t.close();
      await local.close();
    }
  });

  it('`pnpm start` restarted: the local Stripe still knows the connected account, and a fan subscribes', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'fp-local-stripe-'));
    const localFans = (s: StripeService) => ({
      stripe: null,
      webhookSecret: null,
      testCheckout: true,
      feePercent: 10,
      localFans: { stripe: s.client, webhookSecret: s.webhookSecret },
    });
    const before = await startStripeService({ dataDir });
    const first = await startTestApp({ payments: localFans(before) });
    before.deliverTo(`${first.url}/api/stripe/webhook`);
    let after: StripeService | undefined;
    let second: TestApp | undefined;
    try {
      const cookie = await onboard(first, 'restarted');
      const { url } = (await (
        await call(first, 'POST', '/api/creators/username/restarted/payouts/connect', cookie)
      ).json()) as { url: string };
      expect((await fetch(url, { method: 'POST', redirect: 'manual' })).status).toBe(303);
      const put = await call(first, 'PUT', '/api/creators/username/restarted/fan-plan', cookie, PLAN);
      expect(await json(put)).toMatchObject({ live: true, payouts: { chargesEnabled: true } });
      // The restart: a new stand-in on the same data directory, a new api on the same database.
      await before.close();
      after = await startStripeService({ dataDir });
      second = await startTestApp({ joinDatabase: first.databaseUrl!, payments: localFans(after) });
      after.deliverTo(`${second.url}/api/stripe/webhook`);
      const again = await second.signIn(identity('restarted'));
      expect(
        await json(await call(second, 'GET', '/api/creators/username/restarted/fan-plan', again)),
      ).toMatchObject({ live: true, payouts: { chargesEnabled: true, payoutsEnabled: true } });
      // A fan subscribes on the connected account the stand-in still knows.
      const fan = new PayingFan(second);
      await fan.ask('restarted', 'Hello?');
      const start = await fan.post('/api/fan-subscriptions/checkout', {
        creator: 'restarted',
        fanId: fan.fanId,
      });
      expect(start.status).toBe(200);
      const checkout = ((await start.json()) as { url: string }).url;
      expect(checkout.startsWith(`${after.url}/hosted/c/pay/`)).toBe(true);
      const paid = await fetch(checkout, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=fan%40example.com',
      });
      expect(paid.status).toBe(303);
      expect((await fan.state('restarted')).subscription).toMatchObject({ status: 'active' });
    } finally {
      await second?.close();
      await after?.close();
      await first.close();
      await before.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/**
 * Stripe posts connected accounts' events to a Connect endpoint with its own secret (record 0070):
 * one signed correctly is still about a creator, and counts only when it comes from THAT creator's
 * connected account; a platform event (no `account`) counts only for the platform's own sales.
 */
describe('Stripe events count only from where they may come (production, both webhook secrets)', () => {
  let t: TestApp;
  let stripe: StripeService;
  let victim: string;
  let victimAccount: string;
  let attackerAccount: string;
  let fan: PayingFan;
  let session: string;
  let metadata: Record<string, string>;

  const webhook = async (e: { payload: string; signature: string }) => {
    const res = await fetch(`${t.url}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': e.signature },
      body: e.payload,
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { applied?: string; refused?: string; message?: string };
  };
  /** What the creator sees and is told of: earnings, the digest's, and every row a fact would write. */
  const traces = async (eventIds: string[]) => {
    const db = t.db.db;
    const creatorId = metadata.creatorId!;
    const earnings = (await json(await call(t, 'GET', '/api/creators/username/victim/earnings', victim))) as {
      subscribers: number;
      paidThisMonthCents: number;
    };
    const digest = await digestContent(db, creatorId, new Date(Date.now() - 86_400_000), new Date());
    return {
      subscribers: earnings.subscribers,
      paid: earnings.paidThisMonthCents,
      digestEarnings: digest.earnings,
      events: eventIds.length
        ? (await db.selectFrom('payment_events').select('id').where('id', 'in', eventIds).execute()).length
        : 0,
      subscriptions: (
        await db.selectFrom('fan_subscriptions').select('id').where('creator_id', '=', creatorId).execute()
      ).length,
      payments: (await db.selectFrom('fan_subscription_payments').select('invoice_id').execute()).length,
      fan: (await fan.state('victim')).subscription,
    };
  };
  const connectPayouts = async (cookie: string, username: string) => {
    const res = await call(t, 'POST', `/api/creators/username/${username}/payouts/connect`, cookie);
    expect(res.status).toBe(200);
    const account = [...stripe.accounts.values()].at(-1)!.id as string;
    expect(await webhook(stripe.finishOnboarding(account))).toEqual({ received: true, applied: 'applied' });
    return account;
  };

  beforeAll(async () => {
    stripe = await startStripeService({ separateConnectEndpoint: true });
    expect(stripe.connectWebhookSecret).not.toBe(stripe.webhookSecret);
    t = await startTestApp({
      env: PRODUCTION_ENV,
      payments: {
        stripe: stripe.client,
        webhookSecret: stripe.webhookSecret,
        connectWebhookSecret: stripe.connectWebhookSecret,
        testCheckout: false,
        feePercent: 10,
      },
    });
    victim = await onboard(t, 'victim');
    const attacker = await onboard(t, 'attacker');
    victimAccount = await connectPayouts(victim, 'victim');
    attackerAccount = await connectPayouts(attacker, 'attacker');
    expect((await call(t, 'PUT', '/api/creators/username/victim/fan-plan', victim, PLAN)).status).toBe(200);
    // The victim's fan opens a Checkout (on the victim's account), and has not paid.
    fan = new PayingFan(t);
    await fan.ask('victim', 'Hello?');
    const start = await fan.post('/api/fan-subscriptions/checkout', { creator: 'victim', fanId: fan.fanId });
    expect(start.status).toBe(200);
    session = [...stripe.sessions.keys()].at(-1)!;
    metadata = stripe.sessions.get(session)!.metadata as Record<string, string>;
    expect(metadata).toMatchObject({ creatorId: expect.any(String), fanId: expect.any(String) });
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  /** A subscription, its checkout and its paid invoice, as another account's Stripe would describe them. */
  const forgedSubscription = (ids: string) => {
    const now = Math.floor(Date.now() / 1000);
    const end = now + 30 * 86_400;
    const sub = {
      id: `sub_${ids}`,
      object: 'subscription',
      customer: `cus_${ids}`,
      status: 'active',
      cancel_at_period_end: false,
      ended_at: null,
      metadata,
      items: {
        object: 'list',
        data: [
          {
            current_period_start: now,
            current_period_end: end,
            price: { unit_amount: 4_900, recurring: { interval: 'month' } },
          },
        ],
      },
    };
    const checkout = {
      id: `cs_${ids}`,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'complete',
      subscription: sub.id,
      customer: sub.customer,
      customer_details: { email: 'mallory@example.com' },
      metadata,
    };
    const invoice = {
      id: `in_${ids}`,
      object: 'invoice',
      amount_paid: 4_900,
      lines: { object: 'list', data: [{ period: { start: now, end } }] },
      parent: { subscription_details: { subscription: sub.id, metadata } },
      payments: { object: 'list', data: [{ payment: { payment_intent: `pi_${ids}` } }] },
    };
    return { sub, checkout, invoice };
  };

  it("refuses another creator's connected account paying for this creator's fan: nothing unlocks, nothing is earned", async () => {
    const before = await traces([]);
    expect(before).toMatchObject({
      subscribers: 0,
      paid: 0,
      digestEarnings: [],
      subscriptions: 0,
      fan: null,
    });
    const { sub, checkout, invoice } = forgedSubscription('other_account');
    // Signed with the Connect endpoint's secret, as Stripe signs the attacker's own account's events.
    const events = [
      stripe.sign('customer.subscription.created', sub, { account: attackerAccount }),
      stripe.sign('checkout.session.completed', checkout, { account: attackerAccount }),
      stripe.sign('invoice.paid', invoice, { account: attackerAccount }),
    ];
    for (const e of events) {
      // Acknowledged (a refused event must not be delivered again for days), and said why.
      expect(await webhook(e)).toEqual({
        received: true,
        applied: 'ignored',
        refused: 'wrong_account',
        message: expect.stringMatching(/not the payout account of the creator/),
      });
    }
    expect(await traces(events.map((e) => e.id))).toEqual({ ...before, events: 0 });
    // The account updated is another's than the one it is sent from: refused too.
    const account = stripe.sign(
      'account.updated',
      { ...stripe.accounts.get(victimAccount)!, charges_enabled: false },
      { account: attackerAccount },
    );
    expect(await webhook(account)).toMatchObject({ applied: 'ignored', refused: 'wrong_account' });
    expect(await json(await call(t, 'GET', '/api/creators/username/victim/fan-plan', victim))).toMatchObject({
      payouts: { chargesEnabled: true },
    });
  });

  it("refuses a platform event about a fan's subscription, and an event signed with the other endpoint's secret", async () => {
    const before = await traces([]);
    const { sub, checkout, invoice } = forgedSubscription('platform');
    const platform = [
      stripe.sign('customer.subscription.created', sub),
      stripe.sign('checkout.session.completed', checkout),
      stripe.sign('invoice.paid', invoice),
    ];
    for (const e of platform)
      expect(await webhook(e)).toMatchObject({ applied: 'ignored', refused: 'not_from_connect' });
    // The creator's own account's event, signed with the platform endpoint's secret; and the reverse.
    const crossed = [
      stripe.sign('invoice.paid', invoice, { account: victimAccount, secret: stripe.webhookSecret }),
      stripe.sign('invoice.paid', invoice, { secret: stripe.connectWebhookSecret }),
    ];
    for (const e of crossed)
      expect(await webhook(e)).toMatchObject({ applied: 'ignored', refused: 'wrong_endpoint' });
    // A credit pack is the platform's sale: from a connected account it is refused.
    const pack = stripe.sign(
      'checkout.session.completed',
      {
        id: 'cs_pack',
        object: 'checkout.session',
        mode: 'payment',
        payment_status: 'paid',
        metadata: { purchaseId: '00000000-0000-4000-8000-000000000000' },
      },
      { account: attackerAccount },
    );
    expect(await webhook(pack)).toMatchObject({ applied: 'ignored', refused: 'not_from_platform' });
    expect(await traces([...platform, ...crossed, pack].map((e) => e.id))).toEqual({ ...before, events: 0 });
  });

  it("the creator's own account's events apply, once; another account cannot refund them", async () => {
    const paid = stripe.payCheckout(session, 'fan@example.com');
    const outcomes = [];
    for (const e of paid.events) outcomes.push((await webhook(e)).applied);
    expect(outcomes).toEqual(['applied', 'applied', 'applied']);
    const again = [];
    for (const e of paid.events) again.push((await webhook(e)).applied);
    expect(again).toEqual(['duplicate', 'duplicate', 'duplicate']);
    const after = await traces(paid.events.map((e) => e.id));
    expect(after).toMatchObject({
      subscribers: 1,
      paid: 4_900,
      digestEarnings: [{ currency: 'usd', cents: 4_900 }],
      events: 3,
      subscriptions: 1,
      payments: 1,
      fan: { status: 'active' },
    });
    // The same refund, sent from another creator's account: refused; from the creator's: applied.
    const refund = stripe.reverseLastPayment(paid.subscriptionId, 'refund');
    const charge = (JSON.parse(refund.payload) as { data: { object: Record<string, unknown> } }).data.object;
    const foreign = stripe.sign('charge.refunded', charge, { account: attackerAccount });
    expect(await webhook(foreign)).toMatchObject({ applied: 'ignored', refused: 'wrong_account' });
    // Nor does another account renew or change the creator's subscription.
    const sub = stripe.subscriptions.get(paid.subscriptionId)!;
    const cancel = stripe.sign(
      'customer.subscription.deleted',
      { ...sub, status: 'canceled' },
      {
        account: attackerAccount,
      },
    );
    expect(await webhook(cancel)).toMatchObject({ applied: 'ignored', refused: 'wrong_account' });
    expect((await fan.state('victim')).subscription).toMatchObject({ status: 'active' });
    expect(await webhook(refund)).toMatchObject({ applied: 'applied' });
    expect((await fan.state('victim')).subscription).toMatchObject({ status: 'ended' });
  });
});
