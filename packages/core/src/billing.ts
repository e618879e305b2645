import { type Billing, CREDIT_PACKS, isUuid, LOW_CREDITS_THRESHOLD } from '@fanpilot/contracts';
import type { Database } from '@fanpilot/db';
import { type Kysely, sql } from 'kysely';
import { startOfUtcDay } from './answer-policy.ts';
import { creditsRepository, writeLedger } from './credits.ts';
import type { Db } from './db.ts';
import { DomainError } from './errors.ts';
import { notYours } from './ownership.ts';
import { firstDelivery } from './payment-events.ts';

// Buying credits: purchases (pending → paid) and the Stripe events already handled. A purchase's
// credits reach the ledger only through completePurchase, once.

const iso = (d: Date | string) => new Date(d).toISOString();
const DAYS = 30;

/** How this server takes payment: whether buying is possible, and whether checkout is the local test. */
export interface PaymentMode {
  purchasesEnabled: boolean;
  testMode: boolean;
}

/** The creator's billing: ledger totals, the last 30 days of AI answers, purchases and packs. */
export async function billingOf(db: Db, creatorId: string, mode: PaymentMode): Promise<Billing> {
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
    testMode: mode.testMode,
    purchasesEnabled: mode.purchasesEnabled,
  };
}

/** A pending purchase of `pack` for the creator; `provider` says where it is paid. */
export async function createPurchase(
  db: Db,
  creatorId: string,
  pack: (typeof CREDIT_PACKS)[number],
  provider: 'stripe' | 'test',
): Promise<string> {
  const purchase = await db
    .insertInto('credit_purchases')
    .values({
      creator_id: creatorId,
      pack: pack.id,
      credits: pack.credits,
      amount_cents: pack.amountCents,
      provider,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return purchase.id;
}

/** Forgets a purchase whose checkout never started. */
export async function discardPurchase(db: Db, purchaseId: string): Promise<void> {
  await db
    .deleteFrom('credit_purchases')
    .where('id', '=', purchaseId)
    .where('status', '=', 'pending')
    .execute();
}

/** Links a pending purchase to the provider's checkout session. */
export async function attachCheckoutSession(db: Db, purchaseId: string, sessionId: string): Promise<void> {
  await db
    .updateTable('credit_purchases')
    .set({ checkout_session_id: sessionId })
    .where('id', '=', purchaseId)
    .execute();
}

/**
 * Marks a purchase paid and adds its credits to the ledger, once: a second call (a repeated
 * webhook, a double submit) changes nothing. Returns whether credits were added now.
 */
export async function completePurchase(
  db: Db,
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
  const added = await writeLedger(db, paid.creator_id, () =>
    db
      .insertInto('credit_ledger')
      .values({ creator_id: paid.creator_id, delta: paid.credits, reason: 'purchase', purchase_id: paid.id })
      .onConflict((oc) => oc.column('purchase_id').where(sql<boolean>`reason = 'purchase'`).doNothing())
      .returning('id')
      .executeTakeFirst(),
  );
  return Boolean(added);
}

/**
 * A paid checkout reported by the payment provider's event `eventId`: the purchase completes once,
 * however often the event is delivered. Returns whether credits were added now.
 */
export async function completePaidCheckout(
  db: Kysely<Database>,
  event: { id: string; type: string },
  purchaseId: string,
  details: { receiptUrl?: string | null; sessionId?: string | null },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await firstDelivery(trx, event))) return false;
    return completePurchase(trx, purchaseId, details);
  });
}

/** The creator's purchase `id`: not_found when there is none, forbidden when it is another's. */
export async function ownPurchase(db: Db, creatorId: string, id: string) {
  const purchase = isUuid(id)
    ? await db.selectFrom('credit_purchases').selectAll().where('id', '=', id).executeTakeFirst()
    : undefined;
  if (!purchase) throw new DomainError('not_found', 'not_found', 'No such checkout.');
  if (purchase.creator_id !== creatorId) throw notYours();
  return purchase;
}

/**
 * The credit pack a creator may buy now: one of CREDIT_PACKS, and only while buying is switched on
 * (Stripe configured, or the test checkout).
 */
export function checkoutPack(packId: string, purchasesEnabled: boolean): (typeof CREDIT_PACKS)[number] {
  const pack = CREDIT_PACKS.find((p) => p.id === packId);
  if (!pack) {
    throw new DomainError(
      'invalid',
      'unknown_pack',
      `Unknown credit pack. Choose one of: ${CREDIT_PACKS.map((p) => p.id).join(', ')}.`,
    );
  }
  if (!purchasesEnabled) {
    throw new DomainError('conflict', 'billing_disabled', 'Buying credits is switched off on this server.');
  }
  return pack;
}

/** Where a creator pays for a pack: the payment provider's hosted checkout (Stripe's, in the api). */
export interface CreditCheckout {
  /**
   * Opens a hosted checkout for the purchase. Throws the provider's failure as the caller's error
   * (an upstream failure, not a refusal); `url` is null when the provider gave no page.
   */
  start(input: {
    purchaseId: string;
    creatorId: string;
    email: string;
    pack: (typeof CREDIT_PACKS)[number];
    successUrl: string;
    cancelUrl: string;
  }): Promise<{ sessionId: string; url: string | null }>;
  /** The error for a checkout the provider opened with no page to send the creator to. */
  noPage(): Error;
}

export interface CreditPorts {
  db: Db;
  /** The provider; null: the local test checkout (or nothing, when purchases are off). */
  checkout: CreditCheckout | null;
  /** Whether creators can buy credits at all on this server. */
  purchasesEnabled: boolean;
}

/**
 * Starts buying a pack for the signed-in creator (issue 35: a use case, (ports, requester, input)):
 * a pending purchase, and where to pay for it. Buying switched off: 409 billing_disabled, and no
 * purchase is recorded; an unknown pack: 400. A checkout the provider did not open leaves no
 * purchase behind.
 */
export async function buyCreditPack(
  ports: CreditPorts,
  who: { creatorId: string },
  input: { pack: string; publicOrigin: string },
): Promise<{ url: string; purchaseId: string }> {
  const pack = checkoutPack(input.pack, ports.purchasesEnabled);
  const creator = await ports.db
    .selectFrom('creators')
    .select(['username', 'email'])
    .where('id', '=', who.creatorId)
    .executeTakeFirstOrThrow();
  const purchaseId = await createPurchase(ports.db, who.creatorId, pack, ports.checkout ? 'stripe' : 'test');
  if (!ports.checkout) return { url: `/billing/test-checkout/${purchaseId}`, purchaseId };
  const back = `${input.publicOrigin}/dashboard/${encodeURIComponent(creator.username)}`;
  let session: { sessionId: string; url: string | null };
  try {
    session = await ports.checkout.start({
      purchaseId,
      creatorId: who.creatorId,
      email: creator.email,
      pack,
      successUrl: `${back}?billing=paid`,
      cancelUrl: `${back}?billing=cancelled`,
    });
  } catch (err) {
    await discardPurchase(ports.db, purchaseId);
    throw err;
  }
  await attachCheckoutSession(ports.db, purchaseId, session.sessionId);
  if (!session.url) throw ports.checkout.noPage();
  return { url: session.url, purchaseId };
}
