import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, FanBrowser, json, onboard, sent, startTestApp, type TestApp } from '../helpers.ts';
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
    t = await startTestApp({ payments: { stripe: stripe.client, webhookSecret: stripe.webhookSecret } });
    cookie = await onboard(t, 'bo');
    other = await onboard(t, 'cy');
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  it('starts a Stripe Checkout for a pack at SPEC’s price; refuses unknown packs and other creators', async () => {
    const before = await billing();
    expect(before).toMatchObject({
      balance: 1000,
      freeGrant: 1000,
      purchased: 0,
      spent: 0,
      state: 'ok',
      testMode: false,
    });
    expect(before.daily).toHaveLength(30);

    const { url, purchaseId, sessionId } = await checkout('credits-50k');
    expect(url).toBe(`https://checkout.stripe.test/c/pay/${sessionId}`);
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
    expect((await billing(other, 'cy')).state).toBe('out');

    const fan = new FanBrowser(t);
    const asked: string[] = [];
    for (const text of ['First waiting question', 'Second waiting question', 'Third waiting question']) {
      const res = await fan.ask('cy', text);
      expect((await sent(res)).aiWillAnswer).toBe(false);
      asked.push(text);
    }
    await new Promise((r) => setTimeout(r, 300));
    expect((await fan.messages('cy')).filter((m) => m.from === 'Creatorai')).toHaveLength(0);
    // The fan app is told the AI cannot answer now.
    const card = (await json(await fetch(`${t.url}/api/public/creators/cy`))) as unknown as {
      aiAvailable: boolean;
    };
    expect(card.aiAvailable).toBe(false);

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
    expect(
      ((await json(await fetch(`${t.url}/api/public/creators/cy`))) as unknown as { aiAvailable: boolean })
        .aiAvailable,
    ).toBe(true);
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
    expect(b).toMatchObject({ balance: 11_000, purchased: 10_000, testMode: true });
    expect(b.purchases[0]).toMatchObject({ status: 'paid', credits: 10_000 });
  });
});
