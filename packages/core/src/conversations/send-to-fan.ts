import type { FanRow } from '@fanpilot/db';
import { DomainError } from '../errors.ts';
import { fansRepository } from '../fans.ts';
import { messagesRepository } from '../messages.ts';
import { type ConversationPorts, now } from './ports.ts';
import { useReplyDraft } from './reply-drafts.ts';
import { lockNewestPendingQuestion, replyToQuestion } from './reply-to-question.ts';

/**
 * A creator's message to a fan (docs/product.md#what-sending-does): it answers the fan's newest
 * pending question when there is one, and is a new message in the fan's conversation otherwise.
 * `to` is the fan's row, or their fan id (an unknown one is refused). `draftFor`: the message was
 * written from the AI's draft of that question of the fan's, which is used (charged once) with it.
 */
export async function sendToFan(
  ports: ConversationPorts,
  input: { creatorId: string; to: FanRow | string; text: string; draftFor?: string | undefined },
): Promise<{ messageId: string; answeredMessageId: string | null }> {
  const fan =
    typeof input.to === 'string'
      ? await fansRepository(ports.db).findByKey(input.creatorId, input.to)
      : input.to;
  if (!fan || fan.creator_id !== input.creatorId) {
    throw new DomainError('not_found', 'not_found', 'Cannot find fan ID. Please try again.');
  }
  return ports.db.transaction().execute(async (trx) => {
    const at = now(ports);
    const pending = await lockNewestPendingQuestion(trx, fan.id);
    if (input.draftFor) {
      const drafted = await trx
        .selectFrom('messages')
        .select('id')
        .where('id', '=', input.draftFor)
        .where('fan_id', '=', fan.id)
        .executeTakeFirst();
      // A draft of another fan's question is never used (nor charged) by this message.
      if (drafted) await useReplyDraft(trx, { creatorId: input.creatorId, questionId: input.draftFor, at });
    }
    if (pending) {
      const messageId = await replyToQuestion(trx, pending, { sender: 'creator', body: input.text, at });
      return { messageId: messageId!, answeredMessageId: pending.id };
    }
    const messageId = await messagesRepository(trx).insert({
      creatorId: input.creatorId,
      fanRowId: fan.id,
      sender: 'creator',
      body: input.text,
      status: null,
      replyTo: null,
      fanName: fan.name,
    });
    return { messageId, answeredMessageId: null };
  });
}
