import type { MessageFrom } from '@fanpilot/contracts';
import { type Correction, matchCorrection } from './corrections.ts';
import type { Db } from './db.ts';

// One answer context (docs/decisions/0078): what the model sees for one question, whoever asked it
// (a fan's answer, a creator's draft, the playground), read once by buildAnswerContext from a list of
// providers. Each provider adds one part: the conversation, the fan's memory, the creator's
// correction, the retrieved knowledge. A new source of context is one more provider.

/** A turn of the conversation before the question. */
export interface AnswerTurn {
  from: MessageFrom;
  text: string;
}

export interface AnswerAttachment {
  filename: string;
  fileType: string;
}

/** A durable fact a fan shared, kept in their memory for this creator (docs/decisions/0079). */
export interface RememberedFact {
  id: string;
  text: string;
}

/** Who asks what: the part of the context every provider starts from. */
export interface AnswerRequest {
  creatorId: string;
  creatorName: string;
  question: string;
  /** The stored fan question; null in the playground (nothing is stored there). */
  questionId: string | null;
  /** The fan who asked; null in the playground. */
  fanId: string | null;
}

/** What the model sees for one question. `P`: a retrieved passage (packages/knowledge's). */
export interface AnswerContext<P = unknown> extends AnswerRequest {
  /** The conversation before the question, oldest first. */
  history: AnswerTurn[];
  attachment: AnswerAttachment | null;
  /** What the fan's memory keeps for this creator (empty when memory is off). */
  memory: RememberedFact[];
  /** The creator's correction that answers the question, if one matches. */
  correction: Correction | null;
  /** The retrieved knowledge, best first. */
  passages: P[];
}

/** One source of context: reads what it adds from the request and the context read before it. */
export interface ContextProvider<P = unknown> {
  name: string;
  provide(db: Db, context: Readonly<AnswerContext<P>>): Promise<Partial<AnswerContext<P>>>;
}

/**
 * Builds the answer context: the providers run in order, each seeing what those before it added;
 * a group (an array) runs at once (e.g. the correction and the knowledge, which need only the
 * conversation).
 */
export async function buildAnswerContext<P = unknown>(
  db: Db,
  request: AnswerRequest,
  providers: readonly (ContextProvider<P> | readonly ContextProvider<P>[])[],
): Promise<AnswerContext<P>> {
  let context: AnswerContext<P> = {
    ...request,
    history: [],
    attachment: null,
    memory: [],
    correction: null,
    passages: [],
  };
  for (const step of providers) {
    const group = Array.isArray(step) ? step : [step as ContextProvider<P>];
    const parts = await Promise.all(group.map((p) => p.provide(db, context)));
    context = Object.assign({}, context, ...parts);
  }
  return context;
}

/** How many earlier messages of the conversation an answer (or a draft) is written with. */
export const ANSWER_HISTORY_LIMIT = 12;

/** The conversation: the fan's earlier messages with the creator, and the question's attachment. */
export function conversationProvider(historyLimit = ANSWER_HISTORY_LIMIT): ContextProvider<never> {
  return {
    name: 'conversation',
    async provide(db, { creatorId, fanId, questionId }) {
      if (!questionId) return {};
      const [earlier, attachment] = await Promise.all([
        fanId
          ? db
              .selectFrom('messages')
              .select(['sender', 'body'])
              .where('fan_id', '=', fanId)
              .where('creator_id', '=', creatorId)
              .where('id', '<', questionId)
              .orderBy('id', 'desc')
              .limit(historyLimit)
              .execute()
          : [],
        db
          .selectFrom('file_attachments')
          .select(['original_filename', 'file_type'])
          .where('message_id', '=', questionId)
          .executeTakeFirst(),
      ]);
      return {
        history: earlier.reverse().map((m) => ({ from: m.sender, text: m.body })),
        attachment: attachment
          ? { filename: attachment.original_filename, fileType: attachment.file_type }
          : null,
      };
    },
  };
}

/** The creator's correction that answers the question (by its words, or by meaning with `embed`). */
export function correctionProvider(
  embed: ((question: string) => Promise<{ vector: number[]; model: string }>) | null,
): ContextProvider<never> {
  return {
    name: 'corrections',
    async provide(db, { creatorId, question }) {
      const matched = await matchCorrection(db, creatorId, question, async () => {
        if (!embed) return null;
        try {
          return await embed(question);
        } catch {
          // No embedding (the endpoint failed): the correction still matches by its words.
          return null;
        }
      });
      return { correction: matched ?? null };
    },
  };
}
