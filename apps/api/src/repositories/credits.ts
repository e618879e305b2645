import { DEFAULT_DAILY_AI_BUDGET } from '@fanpilot/contracts';
import type { Database } from '@fanpilot/db';
import { aiAnswersToday } from '@fanpilot/knowledge/answer';
import { type Kysely, sql, type Transaction } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

export function creditsRepository(db: Db) {
  return {
    async usage(creatorId: string) {
      const ledger = await db
        .selectFrom('credit_ledger')
        .select([
          sql<string>`coalesce(sum(delta), 0)`.as('remaining'),
          sql<string>`coalesce(-sum(delta) filter (where reason = 'ai_answer'), 0)`.as('used'),
          sql<string>`coalesce(sum(delta) filter (where reason = 'free_grant'), 0)`.as('free'),
          sql<string>`coalesce(sum(delta) filter (where reason = 'purchase'), 0)`.as('purchased'),
        ])
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
