import { DomainError } from '../errors.ts';
import { type ConversationPorts, now } from './ports.ts';
import { useReplyDraft } from './reply-drafts.ts';
import { lockQuestion, replyToQuestion } from './reply-to-question.ts';

/**
 * The creator answers a pending fan question from the inbox: the reply is stored linked to it and
 * the question becomes answered, in one transaction. Answering twice, or after the AI did, is a
 * conflict and writes nothing. Returns the reply's id. `draftFor`: the reply was written from the
 * AI's draft of that question, which is used (charged once) in the same transaction.
 */
export async function answerAsCreator(
  ports: ConversationPorts,
  input: { creatorId: string; messageId: string; text: string; draftFor?: string | undefined },
): Promise<string> {
  return ports.db.transaction().execute(async (trx) => {
    const locked = await lockQuestion(trx, input.messageId, input.creatorId);
    if (!locked.found) throw new DomainError('not_found', 'not_found', 'No such message.');
    if (locked.sender !== 'fan') {
      throw new DomainError('invalid', 'not_a_fan_message', 'Only a fan message can be answered.');
    }
    if (!locked.question) {
      throw new DomainError('conflict', 'already_answered', 'This question has already been answered.');
    }
    const at = now(ports);
    const replyId = await replyToQuestion(trx, locked.question, { sender: 'creator', body: input.text, at });
    // Only the draft of the question being answered is used by this reply.
    if (input.draftFor === input.messageId) {
      await useReplyDraft(trx, { creatorId: input.creatorId, questionId: input.messageId, at });
    }
    // A creator's reply has no unique index to meet: with the question locked and pending it is stored.
    return replyId!;
  });
}
