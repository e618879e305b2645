import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import type { PaymentOwners } from './facts.ts';
import { receiveStripeEvent, type StripeWebhookSecrets } from './stripe.ts';

// The Stripe adapter's judgement of one delivery (record 0070), with owners kept in memory.

const PLATFORM = 'whsec_platform';
const CONNECT = 'whsec_connect';
const ALICE = '11111111-1111-4111-8111-111111111111';
const BOB = '22222222-2222-4222-8222-222222222222';

const owners: PaymentOwners = {
  creatorOfSubscription: async (id) => ({ sub_alice: ALICE })[id] ?? null,
  creatorOfPayment: async (id) => ({ pi_alice: ALICE })[id] ?? null,
  payoutAccountOf: async (id) => ({ [ALICE]: 'acct_alice', [BOB]: 'acct_bob' })[id] ?? null,
};

let n = 0;
function delivery(type: string, object: Record<string, unknown>, account: string | null, secret: string) {
  const payload = JSON.stringify({
    id: `evt_${++n}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    ...(account ? { account } : {}),
    data: { object },
  });
  return {
    body: Buffer.from(payload),
    signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }),
  };
}
const receive = (
  d: { body: Buffer; signature: string },
  secrets: StripeWebhookSecrets = { platform: PLATFORM, connect: CONNECT },
) => receiveStripeEvent(d.body, d.signature, { secrets, feePercent: 10, owners });

const subscription = (id: string, creatorId: string) => ({
  id,
  object: 'subscription',
  status: 'active',
  metadata: { creatorId, fanId: 'f' },
  items: { data: [{ current_period_end: 1, price: { unit_amount: 100, recurring: { interval: 'month' } } }] },
});

describe('receiveStripeEvent', () => {
  it('refuses a body or signature that does not match any secret', async () => {
    const d = delivery('account.updated', { id: 'acct_alice' }, 'acct_alice', 'whsec_other');
    expect(await receive(d)).toEqual({ kind: 'bad_signature' });
    const good = delivery('account.updated', { id: 'acct_alice' }, 'acct_alice', CONNECT);
    expect(await receive({ ...good, body: Buffer.from(`${good.body} `) })).toEqual({ kind: 'bad_signature' });
  });

  it("lets a subscription's event through only from its creator's account, our record before the metadata", async () => {
    const own = await receive(
      delivery('customer.subscription.updated', subscription('sub_new', BOB), 'acct_bob', CONNECT),
    );
    expect(own).toMatchObject({ kind: 'fan', fact: { kind: 'subscription', subscriptionId: 'sub_new' } });
    // Bob's account, about a subscription recorded as Alice's, whatever its metadata says.
    const moved = await receive(
      delivery('customer.subscription.updated', subscription('sub_alice', BOB), 'acct_bob', CONNECT),
    );
    expect(moved).toMatchObject({ kind: 'refused', reason: 'wrong_account' });
    const named = await receive(
      delivery('customer.subscription.created', subscription('sub_other', ALICE), 'acct_bob', CONNECT),
    );
    expect(named).toMatchObject({ kind: 'refused', reason: 'wrong_account' });
    const nobody = await receive(
      delivery('customer.subscription.created', subscription('sub_x', 'not-a-uuid'), 'acct_bob', CONNECT),
    );
    expect(nobody).toMatchObject({ kind: 'refused', reason: 'wrong_account' });
  });

  it('an account update only from that account; a refund only from the account of the payment’s creator', async () => {
    const acct = { id: 'acct_alice', object: 'account', charges_enabled: true };
    expect(await receive(delivery('account.updated', acct, 'acct_alice', CONNECT))).toMatchObject({
      kind: 'fan',
    });
    expect(await receive(delivery('account.updated', acct, 'acct_bob', CONNECT))).toMatchObject({
      kind: 'refused',
      reason: 'wrong_account',
    });
    const refund = (pi: string) => ({ id: 'ch_1', object: 'charge', payment_intent: pi });
    expect(await receive(delivery('charge.refunded', refund('pi_alice'), 'acct_bob', CONNECT))).toMatchObject(
      {
        kind: 'refused',
        reason: 'wrong_account',
      },
    );
    expect(
      await receive(delivery('charge.refunded', refund('pi_alice'), 'acct_alice', CONNECT)),
    ).toMatchObject({
      kind: 'fan',
      fact: { kind: 'reversed', reason: 'refund' },
    });
    // A payment not recorded yet: core answers "again later" (not_yet), and checks it then.
    expect(await receive(delivery('charge.refunded', refund('pi_later'), 'acct_bob', CONNECT))).toMatchObject(
      {
        kind: 'fan',
      },
    );
  });

  it("a platform event counts for the platform's credit packs, never for fans' subscriptions", async () => {
    const sub = subscription('sub_alice', ALICE);
    expect(await receive(delivery('customer.subscription.updated', sub, null, PLATFORM))).toMatchObject({
      kind: 'refused',
      reason: 'not_from_connect',
    });
    const pack = {
      id: 'cs_1',
      object: 'checkout.session',
      mode: 'payment',
      payment_status: 'paid',
      payment_intent: 'pi_pack',
      metadata: { purchaseId: ALICE },
    };
    expect(await receive(delivery('checkout.session.completed', pack, null, PLATFORM))).toMatchObject({
      kind: 'credits',
      fact: { purchaseId: ALICE, sessionId: 'cs_1', paymentId: 'pi_pack' },
    });
    expect(await receive(delivery('checkout.session.completed', pack, 'acct_bob', CONNECT))).toMatchObject({
      kind: 'refused',
      reason: 'not_from_platform',
    });
    expect(await receive(delivery('customer.created', { id: 'cus_1' }, null, PLATFORM))).toMatchObject({
      kind: 'unhandled',
    });
  });

  it("with two secrets each signs only its endpoint's events; with one it signs both", async () => {
    const sub = subscription('sub_alice', ALICE);
    expect(
      await receive(delivery('customer.subscription.updated', sub, 'acct_alice', PLATFORM)),
    ).toMatchObject({
      kind: 'refused',
      reason: 'wrong_endpoint',
    });
    expect(await receive(delivery('customer.subscription.updated', sub, null, CONNECT))).toMatchObject({
      kind: 'refused',
      reason: 'wrong_endpoint',
    });
    const single = { platform: PLATFORM, connect: null };
    expect(
      await receive(delivery('customer.subscription.updated', sub, 'acct_alice', PLATFORM), single),
    ).toMatchObject({ kind: 'fan' });
  });
});

describe('what Stripe does not know', () => {
  it('tells an unknown account and an unknown customer from every other error', async () => {
    const { unknownToStripe } = await import('./stripe.ts');
    expect(
      unknownToStripe({
        code: 'account_invalid',
        statusCode: 403,
        message:
          "The provided key 'sk_test_***' does not have access to account 'acct_1' (or that account does not exist).",
      }),
    ).toBe('account');
    expect(
      unknownToStripe({ code: 'resource_missing', statusCode: 404, message: 'No such account: acct_1' }),
    ).toBe('account');
    expect(
      unknownToStripe({
        code: 'resource_missing',
        statusCode: 404,
        param: 'customer',
        message: "No such customer: 'cus_1'",
      }),
    ).toBe('customer');
    expect(unknownToStripe({ code: 'resource_missing', message: 'No such checkout.session' })).toBeNull();
    expect(unknownToStripe({ statusCode: 500, message: 'Stripe is having a bad day.' })).toBeNull();
    expect(unknownToStripe(new Error('socket hang up'))).toBeNull();
    expect(unknownToStripe(null)).toBeNull();
  });
});
