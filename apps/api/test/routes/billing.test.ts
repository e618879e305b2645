import { CREDIT_PACKS } from '@fanpilot/contracts';
import { createPurchase } from '@fanpilot/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  eventually,
  FanBrowser,
  json,
  onboard,
  PRODUCTION_ENV,
  sent,
  startTestApp,
  type TestApp,
} from '../helpers.ts';
import { startStripeService } from '../support/stripe-service.ts';

interface Billing {
  balance: number;
  freeGrant: number;
  purchased: number;
  spent: number;
  state: string;
  daily: { date: string; aiAnswers: number }[];
  purchases: { id: string; status: string; credits: number; receiptUrl: string | null }[];
  testMode: boolean;
  purchasesEnabled: boolean;
}

/** Buying credits through Stripe (the real client against a loopback Stripe), webhooks applied once. */
describe('credits bought with Stripe', () => {
  let t: TestApp;
  let stripe: Awaited<ReturnType<typeof startStripeService>>;
  let cookie: string;
  let other: string;

  const billing = async (who = cookie, username = 'bo') =>
    (await json(
      await call(t, 'GET', `/api/creators/username/${username}/billing`, who),
    )) as unknown as Billing;
  const webhook = (payload: string, signature?: string) =>
    fetch(`${t.url}/api/stripe/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'stripe-signature': signature } : {}),
      },
      body: payload,
    });
  const checkout = async (pack: string) => {
    const res = await call(t, 'POST', '/api/creators/username/bo/billing/checkout', cookie, { pack });
    expect(res.status).toBe(200);
    const body = (await json(res)) as unknown as { url: string; purchaseId: string };
    const sessionId = [...stripe.sessions.keys()].at(-1)!;
    return { ...body, sessionId };
  };

  beforeAll(async () => {
    stripe = await startStripeService();
    t = await startTestApp({
      payments: {
        stripe: stripe.client,
        webhookSecret: stripe.webhookSecret,
        testCheckout: false,
        feePercent: 10,
      },
    });
    cookie = await onboard(t, 'bo');
    other = await onboard(t, 'cy');
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  it('starts a Stripe Checkout for a pack at the pack’s listed price; refuses unknown packs and other creators', async () => {
    const before = await billing();
    expect(before).toMatchObject({
      balance: 1000,
      freeGrant: 1000,
      purchased: 0,
      spent: 0,
      state: 'ok',
      testMode: false,
      purchasesEnabled: true,
    });
    expect(before.daily).toHaveLength(30);

    const { url, purchaseId, sessionId } = await checkout('credits-50k');
    expect(url).toBe(`${stripe.url}/hosted/c/pay/${sessionId}`);
    const created = stripe.calls.find((c) => c.path === '/v1/checkout/sessions')!;
    expect(created.form).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '500',
      'metadata[purchaseId]': purchaseId,
      client_reference_id: purchaseId,
    });
    expect((await billing()).purchases[0]).toMatchObject({
      id: purchaseId,
      status: 'pending',
      credits: 50_000,
    });

    const unknown = await call(t, 'POST', '/api/creators/username/bo/billing/checkout', cookie, {
      pack: 'credits-1m',
    });
    expect(unknown.status).toBe(400);
    expect(await json(unknown)).toMatchObject({ error: 'unknown_pack' });
    const foreign = await call(t, 'POST', '/api/creators/username/bo/billing/checkout', other, {
      pack: 'credits-10k',
    });
    expect(foreign.status).toBe(403);
    expect((await call(t, 'GET', '/api/creators/username/bo/billing', other)).status).toBe(403);
  });

  it('credits a paid checkout once from the signed webhook; replays and forgeries add nothing', async () => {
    const { purchaseId, sessionId } = await checkout('credits-10k');
    const event = stripe.completedEvent(sessionId, { eventId: 'evt_paid_1' });

    // Forged: another secret, a changed body, no signature.
    const forged = stripe.completedEvent(sessionId, { eventId: 'evt_forged', secret: 'whsec_not_ours' });
    for (const res of [
      await webhook(forged.payload, forged.signature),
      await webhook(event.payload.replace('"paid"', '"paid" '), event.signature),
      await webhook(event.payload),
    ]) {
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'bad_signature' });
    }
    expect((await billing()).purchased).toBe(0);

    const first = await webhook(event.payload, event.signature);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, credited: true });
    const after = await billing();
    expect(after).toMatchObject({ balance: 11_000, purchased: 10_000 });
    expect(after.purchases.find((p) => p.id === purchaseId)).toMatchObject({
      status: 'paid',
      receiptUrl: expect.stringMatching(/^https:\/\/pay\.stripe\.test\/receipts\//),
    });

    // Stripe repeats the event; or sends another event for the same session.
    const replay = await webhook(event.payload, event.signature);
    expect(await replay.json()).toEqual({ received: true, credited: false });
    const again = stripe.completedEvent(sessionId, { eventId: 'evt_paid_2' });
    expect(await (await webhook(again.payload, again.signature)).json()).toEqual({
      received: true,
      credited: false,
    });
    // An unpaid completion (e.g. a delayed method) credits nothing yet.
    const { sessionId: unpaid } = await checkout('credits-10k');
    const pending = stripe.completedEvent(unpaid, { paymentStatus: 'unpaid' });
    expect(await (await webhook(pending.payload, pending.signature)).json()).toEqual({ received: true });
    expect((await billing()).balance).toBe(11_000);
    const ledger = await t.db.db
      .selectFrom('credit_ledger')
      .select('delta')
      .where('reason', '=', 'purchase')
      .execute();
    expect(ledger).toEqual([{ delta: 10_000 }]);
  });

  it('questions that waited with no credits are each answered once after a top-up, each charged once', async () => {
    const creator = await t.db.db
      .selectFrom('creators')
      .select('id')
      .where('username', '=', 'cy')
      .executeTakeFirstOrThrow();
    const { balance } = await billing(other, 'cy');
    await t.db.db
      .insertInto('credit_ledger')
      .values({ creator_id: creator.id, delta: -balance, reason: 'adjustment' })
      .execute();
    // Written here, not through the api: wait until its process has heard it from the change feed.
    await t.app.changes.caughtUp();
    expect((await billing(other, 'cy')).state).toBe('out');

    const fan = new FanBrowser(t);
    const asked: string[] = [];
    for (const text of ['First waiting question', 'Second waiting question', 'Third waiting question']) {
      const res = await fan.ask('cy', text);
      expect((await sent(res)).aiWillAnswer).toBe(false);
      asked.push(text);
    }
    await t.background.idle();
    expect((await fan.messages('cy')).filter((m) => m.from === 'Creatorai')).toHaveLength(0);
    // The fan app is told the AI cannot answer now.
    const card = (await json(await fetch(`${t.url}/api/public/creators/cy`))) as unknown as {
      aiAvailable: boolean;
      statusText: string;
    };
    expect(card.aiAvailable).toBe(false);
    // Not 'Offline - AI responding' while the AI cannot answer (record 0073).
    expect(card.statusText).toBe('Offline - Creator will answer');

    const res = await call(t, 'POST', '/api/creators/username/cy/billing/checkout', other, {
      pack: 'credits-10k',
    });
    const sessionId = [...stripe.sessions.keys()].at(-1)!;
    expect(res.status).toBe(200);
    const event = stripe.completedEvent(sessionId);
    expect((await webhook(event.payload, event.signature)).status).toBe(200);

    const messages = await eventually(async () => {
      const list = await fan.messages('cy');
      return list.filter((m) => m.from === 'Creatorai').length === 3 ? list : null;
    }, 20_000);
    const questions = messages.filter((m) => m.from === 'fan');
    const replies = messages.filter((m) => m.from === 'Creatorai');
    // One reply to each question (answers run in parallel, so their order is not fixed).
    expect(replies.map((r) => questions.findIndex((q) => q.id === r.replyTo)).sort()).toEqual([0, 1, 2]);
    const charges = await t.db.db
      .selectFrom('credit_ledger')
      .select('message_id')
      .where('creator_id', '=', creator.id)
      .where('reason', '=', 'ai_answer')
      .execute();
    expect(charges.map((c) => String(c.message_id)).sort()).toEqual(questions.map((q) => q.id).sort());
    expect(await json(await fetch(`${t.url}/api/public/creators/cy`))).toMatchObject({
      aiAvailable: true,
      statusText: 'Offline - AI responding',
    });
  });
});

/** Without Stripe, `pnpm start` offers a local test checkout that says so and grants the credits. */
describe('the local test checkout', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await startTestApp();
    cookie = await onboard(t, 'tess');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('says plainly it is a test, grants the pack once, and only to its creator', async () => {
    const res = await call(t, 'POST', '/api/creators/username/tess/billing/checkout', cookie, {
      pack: 'credits-10k',
    });
    const { url } = (await json(res)) as unknown as { url: string };
    expect(url).toMatch(/^\/billing\/test-checkout\/[0-9a-f-]{36}$/);
    const page = await fetch(`${t.url}${url}`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Test checkout: no real payment');
    expect((await fetch(`${t.url}${url}`)).status).toBe(401);
    const stranger = await onboard(t, 'ursa');
    expect((await fetch(`${t.url}${url}`, { headers: { cookie: stranger } })).status).toBe(403);

    for (let i = 0; i < 2; i++) {
      const pay = await fetch(`${t.url}${url}`, { method: 'POST', headers: { cookie }, redirect: 'manual' });
      expect(pay.status).toBe(303);
      expect(pay.headers.get('location')).toBe('/dashboard/tess?billing=paid');
    }
    const b = (await json(
      await call(t, 'GET', '/api/creators/username/tess/billing', cookie),
    )) as unknown as Billing;
    expect(b).toMatchObject({ balance: 11_000, purchased: 10_000, testMode: true, purchasesEnabled: true });
    expect(b.purchases[0]).toMatchObject({ status: 'paid', credits: 10_000 });
  });
});

/** Outside production the test checkout stays, but its form obeys the same Origin rule as /api. */
describe('the test checkout and the Origin rule', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await startTestApp();
    cookie = await onboard(t, 'oona');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a cross-site POST to the test checkout (403 bad_origin, nothing granted); same-origin works', async () => {
    const res = await call(t, 'POST', '/api/creators/username/oona/billing/checkout', cookie, {
      pack: 'credits-10k',
    });
    const { url } = (await json(res)) as unknown as { url: string };
    const balance = async () =>
      (
        (await json(
          await call(t, 'GET', '/api/creators/username/oona/billing', cookie),
        )) as unknown as Billing
      ).balance;
    // A form on another site posting to it, as a browser sends it (with or without an Origin).
    for (const headers of <Record<string, string>[]>[
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
    ]) {
      const forged = await fetch(`${t.url}${url}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: '',
        redirect: 'manual',
      });
      expect(forged.status, JSON.stringify(headers)).toBe(403);
      expect(await json(forged)).toMatchObject({ error: 'bad_origin' });
    }
    expect(await balance()).toBe(1000);

    const own = await fetch(`${t.url}${url}`, {
      method: 'POST',
      headers: {
        cookie,
        'content-type': 'application/x-www-form-urlencoded',
        origin: t.url,
        'sec-fetch-site': 'same-origin',
      },
      body: '',
      redirect: 'manual',
    });
    expect(own.status).toBe(303);
    expect(await balance()).toBe(11_000);
  });
});

/** NODE_ENV=production without STRIPE_SECRET_KEY: no test checkout, buying switched off and said so. */
describe('production without Stripe', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await startTestApp({ env: PRODUCTION_ENV });
    cookie = await onboard(t, 'prue');
  });
  afterAll(async () => {
    await t?.close();
  });

  const billing = async () =>
    (await json(await call(t, 'GET', '/api/creators/username/prue/billing', cookie))) as unknown as Billing;

  it('says buying is off in the billing the dashboard reads', async () => {
    expect(await billing()).toMatchObject({ balance: 1000, testMode: false, purchasesEnabled: false });
  });

  it('refuses a checkout with 409 billing_disabled and records no purchase', async () => {
    for (const pack of ['credits-10k', 'credits-200k']) {
      const res = await call(t, 'POST', '/api/creators/username/prue/billing/checkout', cookie, { pack });
      expect(res.status).toBe(409);
      expect(await json(res)).toEqual({
        error: 'billing_disabled',
        message: 'Buying credits is switched off on this server.',
      });
    }
    expect((await billing()).purchases).toEqual([]);
    const rows = await t.db.db.selectFrom('credit_purchases').select('id').execute();
    expect(rows).toEqual([]);
  });

  it('has no test checkout: its routes answer 404, even for a pending purchase of the creator', async () => {
    // A pending test purchase as the attack found it (made before, or by hand): still nothing to grant it.
    const creator = await t.db.db
      .selectFrom('creators')
      .select('id')
      .where('username', '=', 'prue')
      .executeTakeFirstOrThrow();
    const id = await createPurchase(t.db.db, creator.id, CREDIT_PACKS[2], 'test');
    for (const method of ['GET', 'POST']) {
      const res = await fetch(`${t.url}/billing/test-checkout/${id}`, {
        method,
        headers: { cookie, origin: t.url },
        redirect: 'manual',
      });
      expect(res.status, method).toBe(404);
      expect(await json(res)).toMatchObject({ error: 'not_found' });
    }
    expect((await billing()).balance).toBe(1000);
  });
});

/** NODE_ENV=production with Stripe (at STRIPE_API_BASE, a Stripe-compatible endpoint): buying works. */
describe('production with Stripe at STRIPE_API_BASE', () => {
  let t: TestApp;
  let stripe: Awaited<ReturnType<typeof startStripeService>>;
  let cookie: string;
  beforeAll(async () => {
    stripe = await startStripeService();
    t = await startTestApp({
      env: {
        ...PRODUCTION_ENV,
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
        STRIPE_API_BASE: stripe.url,
      },
    });
    cookie = await onboard(t, 'sten');
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  it('starts a checkout at that endpoint with the configured key; no test checkout exists', async () => {
    const status = (await json(
      await call(t, 'GET', '/api/creators/username/sten/billing', cookie),
    )) as unknown as Billing;
    expect(status).toMatchObject({ testMode: false, purchasesEnabled: true });
    const res = await call(t, 'POST', '/api/creators/username/sten/billing/checkout', cookie, {
      pack: 'credits-10k',
    });
    expect(res.status).toBe(200);
    const { url, purchaseId } = (await json(res)) as unknown as { url: string; purchaseId: string };
    expect(url.startsWith(`${stripe.url}/hosted/c/pay/cs_test_`)).toBe(true);
    const created = stripe.calls.find((c) => c.path === '/v1/checkout/sessions');
    expect(created?.authorization).toBe(`Bearer ${stripe.secretKey}`);
    expect(created?.form.client_reference_id).toBe(purchaseId);
    expect(
      (await fetch(`${t.url}/billing/test-checkout/${purchaseId}`, { headers: { cookie } })).status,
    ).toBe(404);
  });
});
