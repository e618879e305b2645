import { answerJobSchema } from '@fanpilot/contracts';
import {
  type AnswerOutcome,
  type AnswerRefusal,
  decideAnswer,
  loadAnswerSnapshot,
  storeAiAnswer,
} from '@fanpilot/core';
import type { Database } from '@fanpilot/db';
import type { Kysely } from 'kysely';
import { answer, type ComposedAnswer, textChannel } from './compose.ts';
import { draftPublisher } from './drafts.ts';
import type { ModelEnv } from './models.ts';

export interface AnswerLogger {
  info: (obj: object, msg: string) => void;
  warn: (obj: object, msg: string) => void;
}

export interface AnswerOptions {
  db: Kysely<Database>;
  env: ModelEnv;
  logger?: AnswerLogger;
  /** The characters of knowledge that go into the prompt (KNOWLEDGE_BUDGET_CHARS). */
  knowledgeBudgetChars?: number;
  /** How many earlier messages of the conversation go into the prompt. */
  historyLimit?: number;
  /** Model call timeout. */
  timeoutMs?: number;
  /** The clock the daily AI answer budget is counted by (midnight UTC); tests inject one. */
  now?: () => Date;
}

export type { AnswerOutcome };

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
    .select([
      'm.id',
      'm.creator_id',
      'm.fan_id',
      'm.sender',
      'm.body',
      'm.status',
      'm.ai_handed_over_at',
      'c.name as creatorName',
    ])
    .where('m.id', '=', messageId)
    .executeTakeFirst();
  if (!question) return 'not_found';
  if (question.sender !== 'fan') return 'not_a_question';
  // Handed over (the AI's reply passed it on, or its tries ran out): it waits for the creator.
  if (question.status !== 'pending' || question.ai_handed_over_at !== null) return 'already_answered';
  const now = options.now ?? (() => new Date());
  // The answer policy, decided again under the lock below; this one spares the model call.
  const snapshot = await loadAnswerSnapshot(db, question.creator_id, { now: now(), answering: messageId });
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

  // Streamed, so the fan sees the answer as it is written (drafts, every DRAFT_EVERY_MS at most).
  const drafts = draftPublisher(db, question.fan_id, question.id, options.logger);
  let composed: ComposedAnswer;
  try {
    composed = await answer(
      {
        db,
        env: options.env,
        chatbot,
        ...(options.historyLimit ? { historyLimit: options.historyLimit } : {}),
        ...(options.knowledgeBudgetChars ? { knowledgeBudgetChars: options.knowledgeBudgetChars } : {}),
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      },
      {
        creatorId: question.creator_id,
        creatorName: question.creatorName,
        question: question.body,
        questionId: question.id,
        fanId: question.fan_id,
      },
      { channel: textChannel((text) => drafts.update(text)) },
    );
  } catch (err) {
    await drafts.discard();
    throw err;
  }
  drafts.stop();
  const model = composed.model;
  const { body, sources, gap, handOver } = composed;

  const stored = await storeAiAnswer(db, {
    questionId: question.id,
    creatorId: question.creator_id,
    body,
    sources,
    gap,
    handOver,
    now: now(),
  });
  const outcome = stored.outcome;
  // Its commit asks for the fan's push (the push outbox). The stored answer (or none) replaces the
  // draft the fan may be watching.
  if (model) await drafts.discard();
  // The stored answer asked for the fan's memory job in its own statement (records 0077, 0079).
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
