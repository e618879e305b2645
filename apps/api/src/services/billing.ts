import type { CreditCheckout } from '@fanpilot/core';
import Stripe from 'stripe';
import { HttpError } from '../errors.ts';

/**
 * How credits are paid for: Stripe when configured; without it, the local test checkout outside
 * production, and in production nothing (buying is switched off).
 */
export interface Payments {
  stripe: Stripe | null;
  webhookSecret: string | null;
  /** The signing secret of a Connect webhook endpoint (connected accounts' events), when it is another. */
  connectWebhookSecret?: string | null;
  /** No Stripe: the local test checkout grants packs without payment (never in production). */
  testCheckout: boolean;
  /** The platform's application fee on fans' subscriptions, in percent (PLATFORM_FEE_PERCENT). */
  feePercent: number;
  /**
   * Without STRIPE_SECRET_KEY outside production: the local Stripe stand-in `pnpm start` runs on
   * loopback for fans' subscriptions (record 0044); the real client talks to it. Never in production.
   */
  localFans?: { stripe: Stripe; webhookSecret: string };
}

/** The Stripe client fans' subscriptions use: Stripe's own, or the local stand-in; null: off. */
export const fanStripe = (payments: Payments): Stripe | null =>
  payments.stripe ?? payments.localFans?.stripe ?? null;

/** The platform's fee on fans' subscriptions when PLATFORM_FEE_PERCENT is unset (record 0043). */
export const DEFAULT_PLATFORM_FEE_PERCENT = 10;

/** Whether creators can buy credits at all on this server. */
export const purchasesEnabled = (payments: Payments) => payments.stripe !== null || payments.testCheckout;

/** The Stripe client's address options from STRIPE_API_BASE (a Stripe-compatible API elsewhere). */
export function stripeAddress(base: string | undefined): Stripe.StripeConfig {
  if (!base) return {};
  const url = new URL(base);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    protocol,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
  };
}

export function createPayments(env: {
  NODE_ENV: 'development' | 'production' | 'test';
  STRIPE_SECRET_KEY?: string | undefined;
  STRIPE_WEBHOOK_SECRET?: string | undefined;
  STRIPE_CONNECT_WEBHOOK_SECRET?: string | undefined;
  STRIPE_API_BASE?: string | undefined;
  PLATFORM_FEE_PERCENT?: number | undefined;
}): Payments {
  const stripe = env.STRIPE_SECRET_KEY
    ? new Stripe(env.STRIPE_SECRET_KEY, {
        maxNetworkRetries: 2,
        timeout: 20_000,
        ...stripeAddress(env.STRIPE_API_BASE),
      })
    : null;
  return {
    stripe,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? null,
    ...(env.STRIPE_CONNECT_WEBHOOK_SECRET ? { connectWebhookSecret: env.STRIPE_CONNECT_WEBHOOK_SECRET } : {}),
    testCheckout: stripe === null && env.NODE_ENV !== 'production',
    feePercent: env.PLATFORM_FEE_PERCENT ?? DEFAULT_PLATFORM_FEE_PERCENT,
  };
}

/**
 * Stripe Checkout in payment mode for a credit pack: the provider behind core's `buyCreditPack`
 * (the rules, the purchase row and its refusals are core's). Its failures are upstream ones (502).
 */
export function stripeCreditCheckout(stripe: Stripe): CreditCheckout {
  return {
    async start({ purchaseId, creatorId, email, pack, successUrl, cancelUrl }) {
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.create({
          mode: 'payment',
          client_reference_id: purchaseId,
          customer_email: email,
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: 'usd',
                unit_amount: pack.amountCents,
                product_data: { name: `${pack.credits.toLocaleString('en-US')} Fanpilot credits` },
              },
            },
          ],
          metadata: { purchaseId, creatorId, pack: pack.id },
          success_url: successUrl,
          cancel_url: cancelUrl,
        });
      } catch (err) {
        throw Object.assign(
          new HttpError(
            502,
            'payment_provider_error',
            'The payment provider could not start the checkout. Please try again.',
          ),
          { cause: err },
        );
      }
      return { sessionId: session.id, url: session.url };
    },
    noPage: () => new HttpError(502, 'payment_provider_error', 'The payment provider gave no checkout page.'),
  };
}
