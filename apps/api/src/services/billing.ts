import { type Billing, CREDIT_PACKS, type CreditPackId, LOW_CREDITS_THRESHOLD } from '@fanpilot/contracts';
import type { CreatorRow, Database } from '@fanpilot/db';
import { startOfUtcDay } from '@fanpilot/knowledge/answer';
import { type Kysely, sql } from 'kysely';
import Stripe from 'stripe';
import { badRequest, HttpError } from '../errors.ts';
import { creditsRepository } from '../repositories/credits.ts';

/** How credits are paid for: Stripe when configured, else the local test checkout. */
export interface Payments {
  stripe: Stripe | null;
  webhookSecret: string | null;
}

export function createPayments(env: {
  STRIPE_SECRET_KEY?: string | undefined;
  STRIPE_WEBHOOK_SECRET?: string | undefined;
}): Payments {
  return {
    stripe: env.STRIPE_SECRET_KEY
      ? new Stripe(env.STRIPE_SECRET_KEY, { maxNetworkRetries: 2, timeout: 20_000 })
      : null,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? null,
  };
}

const iso = (d: Date | string) => new Date(d).toISOString();
const DAYS = 30;

/** The creator's billing: ledger totals, the last 30 days of AI answers, purchases and packs. */
export async function billingOf(
  db: Kysely<Database>,
  creatorId: string,
  testMode: boolean,
): Promise<Billing> {
  const usage = await creditsRepository(db).usage(creatorId);
  const since = new Date(startOfUtcDay(new Date()).getTime() - (DAYS - 1) * 86_400_000);
  const perDay = await db
    .selectFrom('credit_ledger')
    .select([
      sql<string>`to_char(date_trunc('day', created_at at time zone 'UTC'), 'YYYY-MM-DD')`.as('day'),
      sql<string>`count(*)`.as('n'),
    ])
    .where('creator_id', '=', creatorId)
    .where('reason', '=', 'ai_answer')
    .where('created_at', '>=', since)
    .groupBy(sql`1`)
    .execute();
  const counts = new Map(perDay.map((r) => [r.day, Number(r.n)]));
  const daily = Array.from({ length: DAYS }, (_, i) => {
    const date = new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    return { date, aiAnswers: counts.get(date) ?? 0 };
  });
  const purchases = await db
    .selectFrom('credit_purchases')
    .selectAll()
    .where('creator_id', '=', creatorId)
    .orderBy('created_at', 'desc')
    .limit(50)
    .execute();
  const balance = usage.creditsRemaining;
  return {
    balance,
    freeGrant: usage.freeCredits,
    purchased: usage.creditsPurchased,
    spent: usage.creditsUsed,
    state: balance <= 0 ? 'out' : balance < LOW_CREDITS_THRESHOLD ? 'low' : 'ok',
    lowThreshold: LOW_CREDITS_THRESHOLD,
    aiAnswersToday: usage.aiAnswersToday,
    dailyAiBudget: usage.dailyAiBudget,
    aiBudgetReached: usage.aiBudgetReached,
    daily,
    purchases: purchases.map((p) => ({
      id: p.id,
      pack: p.pack,
      credits: p.credits,
      amountCents: p.amount_cents,
      currency: p.currency,
      status: p.status,
      createdAt: iso(p.created_at),
      paidAt: p.paid_at ? iso(p.paid_at) : null,
      receiptUrl: p.receipt_url,
    })),
    packs: CREDIT_PACKS.map((p) => ({ ...p, currency: 'usd' as const })),
    testMode,
  };
}

export const packById = (id: string) => CREDIT_PACKS.find((p) => p.id === (id as CreditPackId));

/**
 * Starts buying a pack: a pending purchase, and where to pay for it (Stripe Checkout, or the local
 * test checkout when Stripe is not configured).
 */
export async function startCheckout(
  db: Kysely<Database>,
  payments: Payments,
  creator: CreatorRow,
  packId: string,
  publicOrigin: string,
): Promise<{ url: string; purchaseId: string }> {
  const pack = packById(packId);
  if (!pack) {
    throw badRequest(
      `Unknown credit pack. Choose one of: ${CREDIT_PACKS.map((p) => p.id).join(', ')}.`,
      'unknown_pack',
    );
  }
  const purchase = await db
    .insertInto('credit_purchases')
    .values({
      creator_id: creator.id,
      pack: pack.id,
      credits: pack.credits,
      amount_cents: pack.amountCents,
      provider: payments.stripe ? 'stripe' : 'test',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (!payments.stripe) return { url: `/billing/test-checkout/${purchase.id}`, purchaseId: purchase.id };
  const back = `${publicOrigin}/dashboard/${encodeURIComponent(creator.username)}`;
  let session: Stripe.Checkout.Session;
  try {
    session = await payments.stripe.checkout.sessions.create({
      mode: 'payment',
      client_reference_id: purchase.id,
      customer_email: creator.email,
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
      metadata: { purchaseId: purchase.id, creatorId: creator.id, pack: pack.id },
      success_url: `${back}?billing=paid`,
      cancel_url: `${back}?billing=cancelled`,
    });
  } catch (err) {
    await db.deleteFrom('credit_purchases').where('id', '=', purchase.id).execute();
    throw Object.assign(
      new HttpError(
        502,
        'payment_provider_error',
        'The payment provider could not start the checkout. Please try again.',
      ),
      { cause: err },
    );
  }
  await db
    .updateTable('credit_purchases')
    .set({ checkout_session_id: session.id })
    .where('id', '=', purchase.id)
    .execute();
  if (!session.url)
    throw new HttpError(502, 'payment_provider_error', 'The payment provider gave no checkout page.');
  return { url: session.url, purchaseId: purchase.id };
}

/**
 * Marks a purchase paid and adds its credits to the ledger, once: a second call (a repeated
 * webhook, a double submit) changes nothing. Returns whether credits were added now.
 */
export async function completePurchase(
  db: Kysely<Database>,
  purchaseId: string,
  details: { receiptUrl?: string | null; sessionId?: string | null } = {},
): Promise<boolean> {
  const paid = await db
    .updateTable('credit_purchases')
    .set({
      status: 'paid',
      paid_at: new Date(),
      ...(details.receiptUrl ? { receipt_url: details.receiptUrl } : {}),
    })
    .where('id', '=', purchaseId)
    .where('status', '=', 'pending')
    .$if(Boolean(details.sessionId), (q) => q.where('checkout_session_id', '=', details.sessionId!))
    .returning(['id', 'creator_id', 'credits'])
    .executeTakeFirst();
  if (!paid) return false;
  const added = await db
    .insertInto('credit_ledger')
    .values({ creator_id: paid.creator_id, delta: paid.credits, reason: 'purchase', purchase_id: paid.id })
    .onConflict((oc) => oc.column('purchase_id').where(sql<boolean>`reason = 'purchase'`).doNothing())
    .returning('id')
    .executeTakeFirst();
  return Boolean(added);
}
