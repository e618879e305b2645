import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startStripeService } from './index.ts';

// `pnpm start` restarted: the local Stripe on the same data directory still knows the creator's
// connected account, the fan's customer and subscription, the Checkout and the payouts (record 0070).

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the local Stripe on a data directory', () => {
  it('knows after a restart the account, the customer and the subscription it knew before', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'local-stripe-'));
    dirs.push(dataDir);
    const first = await startStripeService({ dataDir });
    const account = await first.client.accounts.create({ type: 'express', metadata: { creatorId: 'c1' } });
    first.finishOnboarding(account.id);
    const session = await first.client.checkout.sessions.create(
      {
        mode: 'subscription',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: 4_900,
              recurring: { interval: 'month' },
              product_data: { name: 'Plan' },
            },
          },
        ],
        subscription_data: { application_fee_percent: 10, metadata: { creatorId: 'c1', fanId: 'f1' } },
        metadata: { creatorId: 'c1', fanId: 'f1' },
        success_url: 'http://localhost/ok',
        cancel_url: 'http://localhost/no',
      },
      { stripeAccount: account.id },
    );
    const { subscriptionId } = first.payCheckout(session.id, 'fan@example.com');
    first.addPayout(account.id, 4_410);
    const customer = first.subscriptions.get(subscriptionId)!.customer as string;
    await first.close();

    const again = await startStripeService({ dataDir });
    try {
      expect(again.url).not.toBe(first.url);
      const known = await again.client.accounts.retrieve(account.id);
      expect(known).toMatchObject({ id: account.id, charges_enabled: true, payouts_enabled: true });
      // Onboarding again (the dashboard's "Payouts" button) works on the known account.
      const link = await again.client.accountLinks.create({
        account: account.id,
        type: 'account_onboarding',
        refresh_url: 'http://localhost/r',
        return_url: 'http://localhost/b',
      });
      expect(link.url.startsWith(`${again.url}/hosted/setup/${account.id}`)).toBe(true);
      const read = await again.client.checkout.sessions.retrieve(
        session.id,
        { expand: ['subscription'] },
        { stripeAccount: account.id },
      );
      expect(read).toMatchObject({
        status: 'complete',
        customer,
        url: `${again.url}/hosted/c/pay/${session.id}`,
      });
      expect(read.subscription).toMatchObject({ id: subscriptionId, status: 'active' });
      // The customer portal knows the fan's customer; playing Stripe's side knows the subscription.
      const portal = await again.client.billingPortal.sessions.create(
        { customer, return_url: 'http://localhost/back' },
        { stripeAccount: account.id },
      );
      expect(portal.url.startsWith(`${again.url}/hosted/p/${subscriptionId}`)).toBe(true);
      expect(again.failRenewal(subscriptionId).map((e) => e.type)).toEqual([
        'invoice.payment_failed',
        'customer.subscription.updated',
      ]);
      expect(again.feesOf(subscriptionId)).toBe(490);
      const payouts = await again.client.payouts.list({ limit: 10 }, { stripeAccount: account.id });
      expect(payouts.data.map((p) => p.amount)).toEqual([4_410]);
    } finally {
      await again.close();
    }

    // Without a data directory it keeps nothing (what `pnpm start` did before).
    const memoryOnly = await startStripeService();
    try {
      await expect(memoryOnly.client.accounts.retrieve(account.id)).rejects.toMatchObject({
        statusCode: 404,
      });
    } finally {
      await memoryOnly.close();
    }
  });
});
