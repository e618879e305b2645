import type { StoredSource } from '@fanpilot/contracts';
import type { Database } from '@fanpilot/db';
import { type Kysely, sql } from 'kysely';
import { type AnswerRefusal, decideAnswer, loadAnswerSnapshot } from './answer-policy.ts';
import { chargeAiAnswer } from './credits.ts';
import type { Db } from './db.ts';

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
    const snapshot = await loadAnswerSnapshot(trx, creator.id, { now: input.now });
    if (!snapshot) return 'not_found';
    const decision = decideAnswer(snapshot);
    if (decision === 'creator_online') return decision;
    const current = await trx
      .selectFrom('messages')
      .select(['id', 'status', 'fan_id', 'fan_name'])
      .where('id', '=', input.questionId)
      .forUpdate()
      .executeTakeFirst();
    if (!current) return 'not_found';
    if (current.status !== 'pending') return 'already_answered';
    if (decision !== 'ai') return decision;
    const inserted = await trx
      .insertInto('messages')
      .values({
        creator_id: creator.id,
        fan_id: current.fan_id,
        sender: 'Creatorai',
        body: input.body,
        status: null,
        reply_to: current.id,
        fan_name: current.fan_name,
        sources: JSON.stringify(input.sources),
      })
      .onConflict((oc) => oc.column('reply_to').where(sql<boolean>`sender = 'Creatorai'`).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return 'already_answered';
    await chargeAiAnswer(trx, creator.id, current.id);
    await trx
      .updateTable('messages')
      .set({
        status: 'answered',
        answered_at: new Date(),
        ...(input.gap ? { knowledge_gap_at: new Date() } : {}),
      })
      .where('id', '=', current.id)
      .execute();
    replyId = String(inserted.id);
    return 'answered';
  });
  return { outcome, replyId };
}

/**
 * The AI's tries at a question ran out (the model kept failing for the whole retry budget): from now
 * on the question is the creator's. It stays pending in their dashboard, the fan's chat says the
 * creator will answer personally, and no sweep hands it to the AI again. Returns whether it was
 * still pending (an answer that landed meanwhile wins).
 */
export async function handOverToCreator(db: Db, messageId: string): Promise<boolean> {
  const result = await db
    .updateTable('messages')
    .set({ ai_handed_over_at: new Date() })
    .where('id', '=', messageId)
    .where('sender', '=', 'fan')
    .where('status', '=', 'pending')
    .where('ai_handed_over_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
