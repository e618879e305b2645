import type { Db } from '../db.ts';

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
