import { ANSWER_QUEUE, answerJobId, CREDITS_PER_AI_ANSWER } from '@fanpilot/contracts';
import type { Database } from '@fanpilot/db';
import { type Kysely, sql } from 'kysely';
import { runEvery } from '../periodic.ts';

/** The part of a job runner that enqueues (packages/jobs' JobRunner has it). */
export interface AnswerQueue {
  enqueue: (queue: string, data: object, options?: { jobId?: string }) => Promise<void>;
}

/** Hands one fan question to the AI; a question already queued is not queued twice. */
export async function enqueueAnswer(jobs: AnswerQueue, messageId: string): Promise<void> {
  await jobs.enqueue(ANSWER_QUEUE, { messageId }, { jobId: answerJobId(messageId) });
}

export interface AwaitingOptions {
  creatorId?: string;
  limit?: number;
  /** Only questions asked at least this long ago. */
  olderThanMs?: number;
  /** Only questions asked at most this long ago. */
  newerThanMs?: number;
}

/**
 * Fan questions the AI should answer now: pending, to a creator who is Offline, has a chatbot and
 * has a credit left. Oldest first.
 */
export async function questionsAwaitingAi(
  db: Kysely<Database>,
  options: AwaitingOptions = {},
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
  if (options.olderThanMs !== undefined)
    query = query.where('m.created_at', '<=', new Date(Date.now() - options.olderThanMs));
  if (options.newerThanMs !== undefined)
    query = query.where('m.created_at', '>=', new Date(Date.now() - options.newerThanMs));
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
  options: AwaitingOptions = {},
): Promise<number> {
  const ids = await questionsAwaitingAi(db, options);
  for (const id of ids) await enqueueAnswer(jobs, id);
  return ids.length;
}

export interface AnswerSweepOptions {
  /** How often to look; 60 s by default. */
  intervalMs?: number;
  /** Questions younger than this are still in the hands of the api that stored them (30 s). */
  minAgeMs?: number;
  /** Questions older than this are left alone (1 hour): the creator answers those. */
  maxAgeMs?: number;
  onError?: (error: unknown) => void;
  onRequeued?: (count: number) => void;
}

/**
 * Now and then hands the AI any question that is still waiting for it: one an api stored but did
 * not enqueue because it stopped in between. Job ids make it harmless: a question whose job waits,
 * runs or failed for good (failed jobs are kept) is not queued again, and the handler answers a
 * question at most once. Returns a stop function.
 */
export function startAnswerSweep(
  db: Kysely<Database>,
  jobs: AnswerQueue,
  options: AnswerSweepOptions = {},
): () => void {
  return runEvery(
    options.intervalMs ?? 60_000,
    async () => {
      const n = await requeueAwaitingAnswers(db, jobs, {
        olderThanMs: options.minAgeMs ?? 30_000,
        newerThanMs: options.maxAgeMs ?? 3_600_000,
        limit: 500,
      });
      if (n > 0) options.onRequeued?.(n);
    },
    { onError: options.onError },
  );
}
