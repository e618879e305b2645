import type { StoredSource } from '@fanpilot/contracts';
import { AI_SENDER } from '@fanpilot/contracts';
import type { Database } from '@fanpilot/db';
import type { Kysely } from 'kysely';
import { noteAlert } from '../alerts/note-alert.ts';
import { type AnswerRefusal, budgetDayOf, decideAnswer, loadAnswerSnapshot } from '../answer-policy.ts';
import { chargeAiAnswer } from '../credits.ts';
import { lockQuestion, replyToQuestion } from './reply-to-question.ts';

// A fan's question and what answers it. The AI's answer is stored here, with its charge, once.

/** What became of a question; every outcome but `answered` leaves it as it was. */
export type AnswerOutcome = 'answered' | 'already_answered' | 'not_found' | 'not_a_question' | AnswerRefusal;

export interface AiAnswer {
  questionId: string;
  creatorId: string;
  body: string;
  sources: StoredSource[];
  /** The answer rests on nothing of the creator's knowledge: a gap to show the creator. */
  gap: boolean;
  /**
   * The answer tells the fan the creator will see the question: it stays pending, counted and
   * "Awaiting response" until the creator answers it.
   */
  handOver?: boolean;
  /** The clock today's AI answer budget is counted by. */
  now: Date;
}

/**
 * Stores the AI's answer to a fan question, at most once, in one transaction: it locks the creator
 * and the question, re-checks that the question is still pending, the creator still Offline, a
 * credit left and today's AI answer budget not used up, then stores the `Creatorai` reply, charges
 * one credit and marks the question answered. The unique indexes (one AI reply per question, one
 * charge per question) back this up.
 */
export async function storeAiAnswer(
  db: Kysely<Database>,
  input: AiAnswer,
): Promise<{ outcome: AnswerOutcome; replyId: string | undefined }> {
  let replyId: string | undefined;
  const outcome = await db.transaction().execute(async (trx): Promise<AnswerOutcome> => {
    // The creator row lock serialises spending, so two answers never share the last credit.
    // (NO KEY UPDATE: fans' new messages, which only reference the row, are not held up.)
    const creator = await trx
      .selectFrom('creators')
      .select('id')
      .where('id', '=', input.creatorId)
      .forNoKeyUpdate()
      .executeTakeFirst();
    if (!creator) return 'not_found';
    // Read after the lock, so concurrent answers never share the last credit nor go past the budget
    // (the budget as it is now); decided by the one answer policy.
    const snapshot = await loadAnswerSnapshot(trx, creator.id, {
      now: input.now,
      answering: input.questionId,
    });
    if (!snapshot) return 'not_found';
    const decision = decideAnswer(snapshot);
    if (decision === 'creator_online') return decision;
    const locked = await lockQuestion(trx, input.questionId);
    if (!locked.found) return 'not_found';
    if (!locked.question) return locked.status === 'pending' ? 'not_a_question' : 'already_answered';
    if (decision !== 'ai') return decision;
    const inserted = await replyToQuestion(trx, locked.question, {
      sender: AI_SENDER,
      body: input.body,
      sources: input.sources,
      gap: input.gap,
      handOver: input.handOver === true,
      at: new Date(),
    });
    if (!inserted) return 'already_answered';
    await chargeAiAnswer(trx, creator.id, locked.question.id);
    // This answer used up today's budget: the creator hears of it once a day (record 0061).
    const after = await loadAnswerSnapshot(trx, creator.id, { now: input.now });
    if (after && decideAnswer(after) === 'over_budget') {
      await noteAlert(trx, {
        creatorId: creator.id,
        kind: 'budget_reached',
        ref: budgetDayOf(input.now),
      });
    }
    replyId = inserted;
    return 'answered';
  });
  return { outcome, replyId };
}
