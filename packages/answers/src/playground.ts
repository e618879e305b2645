import { chatbotsRepository, DomainError } from '@fanpilot/core';
import type { Database } from '@fanpilot/db';
import type { Kysely } from 'kysely';
import { answer, type ComposedAnswer } from './compose.ts';
import type { ModelEnv } from './models.ts';

/**
 * "Try your chatbot" (docs/product.md#try-your-chatbot): the creator asks as a fan would and gets
 * the answer a fan would get now, with its sources and the passages retrieved. Nothing is stored and
 * nothing is charged: no fan, no conversation, no credit ledger row. (The api rate-limits it.)
 */
export async function tryChatbot(
  options: { db: Kysely<Database>; env: ModelEnv; timeoutMs?: number },
  input: { creatorId: string; creatorName: string; question: string },
): Promise<ComposedAnswer> {
  const question = input.question.trim();
  if (!question) throw new DomainError('invalid', 'invalid_input', 'Write a question to try.');
  const chatbot = await chatbotsRepository(options.db).findByCreator(input.creatorId);
  if (!chatbot) throw new DomainError('not_found', 'not_found', 'Create your chatbot first.');
  return answer(
    {
      db: options.db,
      env: options.env,
      chatbot,
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    },
    { creatorId: input.creatorId, creatorName: input.creatorName, question, questionId: null, fanId: null },
  );
}
