import {
  ANSWER_HISTORY_LIMIT,
  type ContextProvider,
  conversationProvider,
  correctionProvider,
  memoryProvider,
} from '@fanpilot/core';
import type { Database } from '@fanpilot/db';
import { type Embedder, type RetrievedChunk, retrievePassages } from '@fanpilot/knowledge';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { Kysely } from 'kysely';
import { searchQuery } from './followup.ts';

/**
 * The creator's knowledge for the question: retrieved with the question, or, for a follow-up, with
 * the question the model rewrote from the conversation (or the fan's recent turns).
 */
export function knowledgeProvider(options: {
  embedder: Embedder | null;
  model: BaseChatModel | null;
  chatbotId: string;
  knowledgeBudgetChars?: number;
}): ContextProvider<RetrievedChunk> {
  return {
    name: 'knowledge',
    async provide(db, { history, question }) {
      const query = await searchQuery(options.model, history, question);
      const passages = await retrievePassages(db as Kysely<Database>, {
        embedder: options.embedder,
        chatbotId: options.chatbotId,
        question: query.question,
        context: query.context,
        ...(options.knowledgeBudgetChars ? { budgetChars: options.knowledgeBudgetChars } : {}),
      });
      return { passages };
    },
  };
}

/**
 * What every answer is read from, in order: the conversation and the fan's memory, then the
 * creator's correction and the knowledge (at once; the knowledge needs the conversation).
 */
export function answerContextProviders(options: {
  embedder: Embedder | null;
  model: BaseChatModel | null;
  chatbotId: string;
  historyLimit?: number;
  knowledgeBudgetChars?: number;
}): (ContextProvider<RetrievedChunk> | ContextProvider<RetrievedChunk>[])[] {
  const { embedder } = options;
  return [
    [conversationProvider(options.historyLimit ?? ANSWER_HISTORY_LIMIT), memoryProvider()],
    [
      correctionProvider(
        embedder ? async (q) => ({ vector: await embedder.embedQuery(q), model: embedder.model }) : null,
      ),
      knowledgeProvider(options),
    ],
  ];
}
