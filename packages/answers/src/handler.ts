import { answerJobSchema, type StoredSource } from '@fanpilot/contracts';
import {
  type AnswerOutcome,
  type AnswerRefusal,
  decideAnswer,
  loadAnswerSnapshot,
  storeAiAnswer,
} from '@fanpilot/core';
import type { Database } from '@fanpilot/db';
import { embedderFor, PASSAGES_FOR_MODEL, retrieve } from '@fanpilot/knowledge';
import type { Kysely } from 'kysely';
import { citationFor, citationsFor } from './citations.ts';
import { draftPublisher } from './drafts.ts';
import { createChatModel, type ModelEnv } from './models.ts';
import { offlineAnswer } from './offline.ts';
import { buildPrompt, contentText, type KnowledgeExcerpt, withoutGapTag } from './prompt.ts';

export interface AnswerLogger {
  info: (obj: object, msg: string) => void;
  warn: (obj: object, msg: string) => void;
}

export interface AnswerOptions {
  db: Kysely<Database>;
  env: ModelEnv;
  logger?: AnswerLogger;
  /** How many knowledge chunks go into the prompt. */
  knowledgeLimit?: number;
  /** How many earlier messages of the conversation go into the prompt. */
  historyLimit?: number;
  /** Model call timeout. */
  timeoutMs?: number;
  /** The clock the daily AI answer budget is counted by (midnight UTC); tests inject one. */
  now?: () => Date;
  /** Told the AI reply's message id once it is stored (e.g. to push it to the fan); must not throw. */
  onAnswered?: (replyId: string) => Promise<void> | void;
}

export type { AnswerOutcome };

const DEFAULT_HISTORY_LIMIT = 12;
/**
 * Answers one fan question with the creator's chatbot, at most once.
 *
 * Safe to run any number of times, concurrently or after a crash: the answer is written in one
 * transaction that locks the creator and the question, re-checks that the question is still
 * pending, the creator still Offline, a credit left and today's AI answer budget not used up
 * (past it the question waits for the creator), then stores the `Creatorai` reply, charges
 * one credit and marks the question answered. The unique indexes (one AI reply per question, one
 * charge per question) back this up. Provider errors throw, so the job retries with backoff; when
 * the retries run out the question simply stays pending for the creator.
 */
export async function answerQuestion(options: AnswerOptions, messageId: string): Promise<AnswerOutcome> {
  const { db } = options;
  const question = await db
    .selectFrom('messages as m')
    .innerJoin('creators as c', 'c.id', 'm.creator_id')
    .select(['m.id', 'm.creator_id', 'm.fan_id', 'm.sender', 'm.body', 'm.status', 'c.name as creatorName'])
    .where('m.id', '=', messageId)
    .executeTakeFirst();
  if (!question) return 'not_found';
  if (question.sender !== 'fan') return 'not_a_question';
  if (question.status !== 'pending') return 'already_answered';
  const now = options.now ?? (() => new Date());
  // The answer policy, decided again under the lock below; this one spares the model call.
  const snapshot = await loadAnswerSnapshot(db, question.creator_id, { now: now() });
  if (!snapshot) return 'not_found';
  const decision = decideAnswer(snapshot);
  if (decision !== 'ai') return decision;
  const chatbot = await db
    .selectFrom('chatbots')
    .selectAll()
    .where('creator_id', '=', question.creator_id)
    .executeTakeFirst();
  // Deleted since the snapshot was read: the policy decides on that (never 'ai' without a chatbot).
  if (!chatbot) return decideAnswer({ ...snapshot, dailyBudget: null }) as AnswerRefusal;

  const chunks = await retrieve(db, {
    embedder: embedderFor(options.env),
    chatbotId: chatbot.id,
    question: question.body,
    limit: options.knowledgeLimit ?? PASSAGES_FOR_MODEL,
  });
  const knowledge: KnowledgeExcerpt[] = chunks.map((c) => ({
    title: c.title,
    source: c.source,
    content: c.content,
  }));

  let body: string;
  let sources: StoredSource[];
  /** Whether the answer rests on nothing of the creator's knowledge: a gap to show the creator. */
  let gap: boolean;
  const model = await createChatModel(chatbot.model, options.env, {
    temperature: chatbot.temperature,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  if (model) {
    const history = question.fan_id
      ? (
          await db
            .selectFrom('messages')
            .select(['sender', 'body'])
            .where('fan_id', '=', question.fan_id)
            .where('creator_id', '=', question.creator_id)
            .where('id', '<', question.id)
            .orderBy('id', 'desc')
            .limit(options.historyLimit ?? DEFAULT_HISTORY_LIMIT)
            .execute()
        )
          .reverse()
          .map((m) => ({ from: m.sender, text: m.body }))
      : [];
    const attachment = await db
      .selectFrom('file_attachments')
      .select(['original_filename', 'file_type'])
      .where('message_id', '=', question.id)
      .executeTakeFirst();
    const prompt = buildPrompt({
      instructions: chatbot.instructions,
      chatbotName: chatbot.name,
      creatorName: question.creatorName,
      initialMessages: chatbot.initial_messages,
      history,
      question: question.body,
      attachment: attachment
        ? { filename: attachment.original_filename, fileType: attachment.file_type }
        : null,
      knowledge,
    });
    // Streamed, so the fan sees the answer as it is written (drafts, every DRAFT_EVERY_MS at most).
    const drafts = draftPublisher(db, question.fan_id, question.id, options.logger);
    let written = '';
    try {
      for await (const chunk of await model.stream(prompt)) {
        written += contentText(chunk.content);
        drafts.update(written);
      }
    } catch (err) {
      await drafts.discard();
      throw err;
    }
    drafts.stop();
    const tagged = withoutGapTag(written.trim());
    const text = tagged.text;
    if (!text) throw new Error('The model returned an empty answer');
    // Material the model said does not answer the question is not cited.
    gap = tagged.gap || knowledge.length === 0;
    // The answer's citations travel as data (shown as chips the fan can open), not in its text.
    sources = tagged.gap ? [] : citationsFor(chunks, question.body);
    body = text;
  } else {
    // No key for the provider: the creator's own material quoted, or a polite fallback when
    // nothing matches; stored and charged below like any AI answer.
    const quoted = offlineAnswer(question.creatorName, knowledge);
    body = quoted.text;
    const best = chunks.find((c) => c.content.trim());
    sources = quoted.sources.length > 0 && best ? [citationFor(best, question.body)] : [];
    gap = sources.length === 0;
  }

  const stored = await storeAiAnswer(db, {
    questionId: question.id,
    creatorId: question.creator_id,
    body,
    sources,
    gap,
    now: now(),
  });
  const outcome = stored.outcome;
  const replyId = stored.replyId;
  if (outcome === 'answered' && replyId) await options.onAnswered?.(replyId);
  // The stored answer (or none) replaces the draft the fan may be watching.
  if (model) await draftPublisher(db, question.fan_id, question.id, options.logger).discard();
  return outcome;
}

/**
 * The ANSWER_QUEUE job handler. Register it with a job runner:
 * `jobs.work({ [ANSWER_QUEUE]: createAnswerHandler({ db, env }) })`.
 */
export function createAnswerHandler(options: AnswerOptions) {
  return async (data: unknown, context?: { attempt: number; jobId?: string | undefined }): Promise<void> => {
    const parsed = answerJobSchema.safeParse(data);
    if (!parsed.success) {
      // A malformed payload never becomes valid by retrying.
      options.logger?.warn({ data }, 'answer job: malformed payload dropped');
      return;
    }
    const outcome = await answerQuestion(options, parsed.data.messageId);
    options.logger?.info(
      { messageId: parsed.data.messageId, outcome, attempt: context?.attempt },
      'answer job finished',
    );
  };
}
