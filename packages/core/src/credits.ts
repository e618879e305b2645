import { CREDITS_PER_AI_ANSWER, DEFAULT_DAILY_AI_BUDGET, FREE_CREDITS } from '@fanpilot/contracts';
import { sql } from 'kysely';
import type { Db } from './db.ts';

// The credits ledger: every grant, purchase, adjustment and AI charge is a row of credit_ledger,
// written here and nowhere else; a trigger keeps credit_totals as the ledger grows.

/**
 * A creator's credit balance: the sum of their ledger (grants, purchases, adjustments, answers),
 * which a trigger keeps in credit_totals as the ledger grows.
 */
export async function creditBalance(db: Db, creatorId: string): Promise<number> {
  const row = await db
    .selectFrom('credit_totals')
    .select('balance')
    .where('creator_id', '=', creatorId)
    .executeTakeFirst();
  return Number(row?.balance ?? 0);
}

/** Midnight UTC at the start of `now`'s day: the daily AI answer budget starts afresh then. */
export function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** The creator's AI answers since midnight UTC, counted from the ledger (one charge per answer). */
export async function aiAnswersToday(db: Db, creatorId: string, now: Date = new Date()): Promise<number> {
  const row = await db
    .selectFrom('credit_ledger')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('creator_id', '=', creatorId)
    .where('reason', '=', 'ai_answer')
    .where('created_at', '>=', startOfUtcDay(now))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Why the AI may not answer a creator's fans now (`null`: it may). */
export type AiRefusal = 'no_chatbot' | 'no_credits' | 'over_budget';

export interface AiAllowance {
  /** Why the AI may not answer one more question now, or null. */
  refusal: AiRefusal | null;
  /** AI answers the creator can still pay for (credits). */
  affordable: number;
  answersToday: number;
  dailyBudget: number | null;
}

/** What the creator's AI may still spend today: credits, today's answers and the daily budget. */
export async function aiAllowance(db: Db, creatorId: string, now: Date = new Date()): Promise<AiAllowance> {
  const chatbot = await db
    .selectFrom('chatbots')
    .select('daily_ai_budget')
    .where('creator_id', '=', creatorId)
    .executeTakeFirst();
  const affordable = Math.floor((await creditBalance(db, creatorId)) / CREDITS_PER_AI_ANSWER);
  const answersToday = await aiAnswersToday(db, creatorId, now);
  const dailyBudget = chatbot?.daily_ai_budget ?? null;
  const refusal: AiRefusal | null = !chatbot
    ? 'no_chatbot'
    : affordable < 1
      ? 'no_credits'
      : answersToday >= chatbot.daily_ai_budget
        ? 'over_budget'
        : null;
  return { refusal, affordable, answersToday, dailyBudget };
}

/**
 * Whether the creator's AI may answer one more question now: a chatbot, a credit left and today's
 * budget not used up. (Offline or not is the caller's business.)
 */
export async function aiRefusal(
  db: Db,
  creatorId: string,
  now: Date = new Date(),
): Promise<AiRefusal | null> {
  return (await aiAllowance(db, creatorId, now)).refusal;
}

/** The sign-up grant: FREE_CREDITS, once, as the creator finishes onboarding (in its transaction). */
export async function grantFreeCredits(db: Db, creatorId: string): Promise<void> {
  await db
    .insertInto('credit_ledger')
    .values({ creator_id: creatorId, delta: FREE_CREDITS, reason: 'free_grant' })
    .execute();
}

/** One AI answer's charge for the question `messageId`; a second charge for the same question is a no-op. */
export async function chargeAiAnswer(db: Db, creatorId: string, messageId: string): Promise<void> {
  await db
    .insertInto('credit_ledger')
    .values({
      creator_id: creatorId,
      delta: -CREDITS_PER_AI_ANSWER,
      reason: 'ai_answer',
      message_id: messageId,
    })
    .onConflict((oc) => oc.column('message_id').where(sql<boolean>`reason = 'ai_answer'`).doNothing())
    .execute();
}

export function creditsRepository(db: Db) {
  return {
    async usage(creatorId: string) {
      // The ledger's totals, kept by a trigger on credit_ledger.
      const ledger = await db
        .selectFrom('credit_totals')
        .select(['balance as remaining', 'used', 'free', 'purchased'])
        .where('creator_id', '=', creatorId)
        .executeTakeFirst();
      // Counted from the ledger, so deleting a conversation does not rewrite today's figure.
      const today = await aiAnswersToday(db, creatorId);
      const chatbot = await db
        .selectFrom('chatbots')
        .select('daily_ai_budget')
        .where('creator_id', '=', creatorId)
        .executeTakeFirst();
      const dailyAiBudget = chatbot?.daily_ai_budget ?? DEFAULT_DAILY_AI_BUDGET;
      return {
        creditsUsed: Number(ledger?.used ?? 0),
        creditsRemaining: Number(ledger?.remaining ?? 0),
        freeCredits: Number(ledger?.free ?? 0),
        creditsPurchased: Number(ledger?.purchased ?? 0),
        aiAnswersToday: today,
        dailyAiBudget,
        aiBudgetReached: today >= dailyAiBudget,
      };
    },
  };
}
