import { CREDITS_PER_AI_ANSWER, DEFAULT_DAILY_AI_BUDGET, FREE_CREDITS } from '@fanpilot/contracts';
import { sql } from 'kysely';
import { aiRefusal, budgetReached, loadAnswerSnapshot } from './answer-policy.ts';
import type { Db } from './db.ts';

// The credits ledger: every grant, purchase, adjustment and AI charge is a row of credit_ledger,
// written here and nowhere else; a trigger keeps credit_totals as the ledger grows. Whether the AI
// may spend a credit is the answer policy's business (answer-policy.ts).

/**
 * Writes to the ledger through `write`, and when the write changes whether the creator's AI can
 * answer (the answer policy's aiRefusal, read before and after), announces the creator's public
 * face on the change feed (scope 'p'): fans' cards and streams learn it as the trigger told them
 * before, without the trigger restating the rule (migration 2026-11-25T01-00_answer_state_from_core).
 */
export async function writeLedger<T>(db: Db, creatorId: string, write: () => Promise<T>): Promise<T> {
  const before = await aiRefusal(db, creatorId);
  const result = await write();
  if ((await aiRefusal(db, creatorId)) !== before) {
    await sql`select note_change('p', ${creatorId}, 'credit_totals')`.execute(db);
  }
  return result;
}

/** The sign-up grant: FREE_CREDITS, once, as the creator finishes onboarding (in its transaction). */
export async function grantFreeCredits(db: Db, creatorId: string): Promise<void> {
  await writeLedger(db, creatorId, () =>
    db
      .insertInto('credit_ledger')
      .values({ creator_id: creatorId, delta: FREE_CREDITS, reason: 'free_grant' })
      .execute(),
  );
}

/**
 * A correction of the creator's balance by `delta` credits (support's refund or write-off): the
 * ledger is never rewritten (a trigger refuses it), so a correction is an `adjustment` row.
 */
export async function adjustCredits(db: Db, creatorId: string, delta: number): Promise<void> {
  if (!Number.isInteger(delta) || delta === 0)
    throw new Error('a credit adjustment is a non-zero whole number');
  await writeLedger(db, creatorId, () =>
    db.insertInto('credit_ledger').values({ creator_id: creatorId, delta, reason: 'adjustment' }).execute(),
  );
}

/** One AI answer's charge for the question `messageId`; a second charge for the same question is a no-op. */
export async function chargeAiAnswer(db: Db, creatorId: string, messageId: string): Promise<void> {
  await writeLedger(db, creatorId, () =>
    db
      .insertInto('credit_ledger')
      .values({
        creator_id: creatorId,
        delta: -CREDITS_PER_AI_ANSWER,
        reason: 'ai_answer',
        message_id: messageId,
      })
      .onConflict((oc) => oc.column('message_id').where(sql<boolean>`reason = 'ai_answer'`).doNothing())
      .execute(),
  );
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
      const snapshot = await loadAnswerSnapshot(db, creatorId);
      const today = snapshot?.answersToday ?? 0;
      const dailyAiBudget = snapshot?.dailyBudget ?? DEFAULT_DAILY_AI_BUDGET;
      return {
        creditsUsed: Number(ledger?.used ?? 0),
        creditsRemaining: Number(ledger?.remaining ?? 0),
        freeCredits: Number(ledger?.free ?? 0),
        creditsPurchased: Number(ledger?.purchased ?? 0),
        aiAnswersToday: today,
        dailyAiBudget,
        aiBudgetReached: budgetReached(today, dailyAiBudget),
      };
    },
  };
}
