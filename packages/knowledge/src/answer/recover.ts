import { ANSWER_QUEUE, answerJobId, CREDITS_PER_AI_ANSWER } from '@fanpilot/contracts';
import type { Database } from '@fanpilot/db';
import { type Kysely, sql } from 'kysely';

/** The part of a job runner that enqueues (packages/jobs' JobRunner has it). */
export interface AnswerQueue {
  enqueue: (queue: string, data: object, options?: { jobId?: string }) => Promise<void>;
}

/** Hands one fan question to the AI; a question already queued is not queued twice. */
export async function enqueueAnswer(jobs: AnswerQueue, messageId: string): Promise<void> {
  await jobs.enqueue(ANSWER_QUEUE, { messageId }, { jobId: answerJobId(messageId) });
}

/**
 * Fan questions the AI should answer now: pending, to a creator who is Offline, has a chatbot and
 * has a credit left. Oldest first.
 */
export async function questionsAwaitingAi(
  db: Kysely<Database>,
  options: { creatorId?: string; limit?: number } = {},
): Promise<string[]> {
  let query = db
    .selectFrom('messages as m')
    .innerJoin('creators as c', 'c.id', 'm.creator_id')
    .innerJoin('chatbots as b', 'b.creator_id', 'c.id')
    .select('m.id')
    .where('m.sender', '=', 'fan')
    .where('m.status', '=', 'pending')
    .where('c.is_online', '=', false)
    .where(
      sql<boolean>`(select coalesce(sum(l.delta), 0) from credit_ledger l where l.creator_id = c.id) >= ${CREDITS_PER_AI_ANSWER}`,
    );
  if (options.creatorId) query = query.where('m.creator_id', '=', options.creatorId);
  const rows = await query
    .orderBy('m.id', 'asc')
    .limit(options.limit ?? 1000)
    .execute();
  return rows.map((r) => String(r.id));
}

/**
 * Re-enqueues what the AI should answer (after a crash or restart, or when a creator goes Offline).
 * Harmless to run often: job ids deduplicate and the handler answers a question at most once.
 */
export async function requeueAwaitingAnswers(
  db: Kysely<Database>,
  jobs: AnswerQueue,
  options: { creatorId?: string; limit?: number } = {},
): Promise<number> {
  const ids = await questionsAwaitingAi(db, options);
  for (const id of ids) await enqueueAnswer(jobs, id);
  return ids.length;
}
