import type { ReplyDraft } from '@fanpilot/contracts';
import { chatbotsRepository, DomainError, draftableQuestion, saveReplyDraft } from '@fanpilot/core';
import type { Database } from '@fanpilot/db';
import type { Kysely } from 'kysely';
import { withoutMarkers } from './cite.ts';
import { answer } from './compose.ts';
import type { ModelEnv } from './models.ts';

/**
 * The AI's draft of the creator's reply to a pending fan question (docs/decisions/0060): written once
 * from the creator's content, as the AI would answer (corrections first, then the retrieved
 * knowledge, with the conversation), and read back after that. Nothing reaches the fan and nothing
 * is charged here: the creator sends it as their own message (one credit) or discards it (free).
 * When the content does not cover the question, the draft is empty and says so (`covered: false`).
 */
export async function draftReply(
  options: { db: Kysely<Database>; env: ModelEnv; timeoutMs?: number },
  input: { creatorId: string; creatorName: string; questionId: string },
): Promise<ReplyDraft> {
  const { db } = options;
  const question = await draftableQuestion(db, input.creatorId, input.questionId);
  if (question.draft) return question.draft;
  const chatbot = await chatbotsRepository(db).findByCreator(input.creatorId);
  if (!chatbot) throw new DomainError('not_found', 'not_found', 'Create your chatbot first.');
  const composed = await answer(
    { db, env: options.env, chatbot, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) },
    {
      creatorId: input.creatorId,
      creatorName: input.creatorName,
      question: question.body,
      questionId: question.id,
      fanId: question.fanId,
    },
    // The creator's own reply: first person, no quotation or "— from" line (docs/decisions/0075).
    { voice: 'creator' },
  );
  const covered = !composed.handOver && !composed.gap;
  return saveReplyDraft(db, {
    creatorId: input.creatorId,
    questionId: question.id,
    // The creator's messages cite nothing: the markers go, the sources stay beside the draft.
    text: covered ? withoutMarkers(composed.body) : '',
    sources: covered ? composed.sources : [],
    covered,
    model: composed.model,
  });
}
