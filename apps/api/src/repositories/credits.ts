import { DEFAULT_DAILY_AI_BUDGET } from '@fanpilot/contracts';
import type { Database } from '@fanpilot/db';
import { aiAnswersToday } from '@fanpilot/knowledge/answer';
import type { Kysely, Transaction } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

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
