import { CREDITS_PER_AI_ANSWER } from '@fanpilot/contracts';
import type { Database } from '@fanpilot/db';
import type { Kysely, Transaction } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

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
