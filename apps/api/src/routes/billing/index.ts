import { calls } from '@fanpilot/contracts';
import {
  applyStripeFact,
  billingOf,
  buyCreditPack,
  completePaidCheckout,
  completePurchase,
  ownPurchase,
  paymentOwners,
} from '@fanpilot/core';
import { receiveStripeEvent, stripeReceiptUrl } from '@fanpilot/payments';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, notFound } from '../../errors.ts';
import { ownInboxByParam } from '../../plugins/changes.ts';
import { fanStripe, type Payments, purchasesEnabled, stripeCreditCheckout } from '../../services/billing.ts';

export interface BillingRoutesOptions {
  payments: Payments;
  publicOrigin: string;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * Buying credits: the creator's billing, a checkout for a pack, Stripe's webhook (signed, each event
 * applied once) and, without Stripe, a local test checkout that says plainly it is one. In
 * production without Stripe there is no test checkout at all (its routes are not registered) and
 * buying is switched off.
 */
export async function billingRoutes(app: FastifyInstance, opts: BillingRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { payments, publicOrigin } = opts;
  const mode = { testMode: payments.testCheckout, purchasesEnabled: purchasesEnabled(payments) };
  const credit = {
    db: app.db,
    checkout: payments.stripe ? stripeCreditCheckout(payments.stripe) : null,
    purchasesEnabled: mode.purchasesEnabled,
  };

  r.get(
    calls.billing.path,
    {
      config: { versionedBy: ownInboxByParam },
      schema: calls.billing.schema,
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      reply.header('cache-control', 'no-store');
      return billingOf(app.db, creator.id, mode);
    },
  );

  r.post(
    calls.checkout.path,
    {
      schema: calls.checkout.schema,
    },
    async (request) => {
      const creator = await app.requireOwner(request, request.params.username);
      return buyCreditPack(credit, { creatorId: creator.id }, { pack: request.body.pack, publicOrigin });
    },
  );

  // Stripe's webhook: the signature is checked on the exact bytes Stripe sent.
  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    webhook.post(calls.stripeWebhook.path, { schema: calls.stripeWebhook.schema }, async (request) => {
      if (!fanStripe(payments) || !(payments.webhookSecret || payments.localFans)) {
        throw notFound('Stripe is not configured on this server.');
      }
      const signature = request.headers['stripe-signature'];
      if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) {
        throw badRequest('A Stripe-Signature header and a body are required.', 'bad_signature');
      }
      // The Stripe adapter checks the signature (the account's endpoint, or a Connect endpoint with
      // its own secret; older than five minutes is a replay) and where the event comes from.
      const delivery = await receiveStripeEvent(request.body, signature, {
        secrets: {
          platform: payments.webhookSecret,
          connect: payments.connectWebhookSecret ?? null,
          local: payments.localFans?.webhookSecret ?? null,
        },
        feePercent: payments.feePercent,
        owners: paymentOwners(app.db),
      });
      switch (delivery.kind) {
        case 'bad_signature':
          throw badRequest('The webhook signature does not match.', 'bad_signature');
        case 'refused':
          // Acknowledged (Stripe would deliver it again for days otherwise), and nothing changes.
          request.log.warn(
            { event: delivery.event.id, type: delivery.event.type, reason: delivery.reason },
            'a Stripe event refused',
          );
          return { received: true, applied: 'ignored', refused: delivery.reason, message: delivery.message };
        case 'unhandled':
          return { received: true };
        case 'fan': {
          // Fans' subscriptions and creators' connected accounts (record 0043): applied once, in any order.
          const { event, fact } = delivery;
          // A subscriber's questions that met the paywall go to the AI: the subscription's write asks
          // for it in its transaction (record 0077).
          const outcome = await applyStripeFact(app.db, event, fact);
          return { received: true, applied: outcome };
        }
        case 'credits': {
          // Credit packs are bought through Stripe's own API only (the local stand-in serves fans' plans).
          if (!payments.stripe) return { received: true };
          const { event, fact } = delivery;
          let receiptUrl: string | null = null;
          if (fact.paymentId) {
            try {
              receiptUrl = await stripeReceiptUrl(payments.stripe, fact.paymentId);
            } catch (err) {
              request.log.warn({ err, session: fact.sessionId }, 'receipt not found for a paid checkout');
            }
          }
          const credited = await completePaidCheckout(app.db, event, fact.purchaseId, {
            receiptUrl,
            sessionId: fact.sessionId,
          });
          // Credits added: the ledger's write asked for the waiting questions to go to the AI (record 0077).
          return { received: true, credited };
        }
      }
    });
  });

  // The local test checkout (no STRIPE_SECRET_KEY, never in production): a page that says plainly
  // it is a test. Its form's POST changes data, so the Origin rule of plugins/security.ts covers it.
  if (payments.testCheckout && payments.stripe === null)
    await app.register(async (page) => testCheckout(page));

  async function testCheckout(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    // The page's form posts url-encoded; it carries nothing the route reads.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_req, _body, done) => done(null, {}),
    );
    const ownPending = async (request: Parameters<typeof app.requireCreator>[0], id: string) => {
      const creator = await app.requireCreator(request);
      return { creator, purchase: await ownPurchase(app.db, creator.id, id) };
    };
    r.get(
      '/billing/test-checkout/:id',
      { schema: { params: z.object({ id: z.string().max(100) }) } },
      async (request, reply) => {
        const { purchase } = await ownPending(request, request.params.id);
        const credits = purchase.credits.toLocaleString('en-US');
        const price = `$${(purchase.amount_cents / 100).toFixed(2)}`;
        reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
        return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Test checkout</title></head>
<body><main><h1>Test checkout: no real payment</h1>
<p>This server has no payment provider configured (STRIPE_SECRET_KEY is not set), so this checkout is a local test, like the local sign-in. No card is charged and nothing is bought.</p>
<p>Pack: <strong>${escapeHtml(credits)} credits</strong> for ${escapeHtml(price)} (test).</p>
${
  purchase.status === 'paid'
    ? '<p>These test credits were already granted.</p>'
    : `<form method="post" action="/billing/test-checkout/${escapeHtml(purchase.id)}"><button type="submit">Grant ${escapeHtml(credits)} test credits</button></form>`
}
</main></body></html>`;
      },
    );
    r.post(
      '/billing/test-checkout/:id',
      { schema: { params: z.object({ id: z.string().max(100) }) } },
      async (request, reply) => {
        const { creator, purchase } = await ownPending(request, request.params.id);
        await completePurchase(app.db, purchase.id);
        return reply.redirect(`/dashboard/${encodeURIComponent(creator.username)}?billing=paid`, 303);
      },
    );
  }
}
