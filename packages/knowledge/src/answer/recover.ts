import { ANSWER_QUEUE, answerJobId, CREDITS_PER_AI_ANSWER } from '@fanpilot/contracts';
import type { Database } from '@fanpilot/db';
import { type Kysely, sql } from 'kysely';
import { runEvery } from '../periodic.ts';
import { startOfUtcDay } from './credits.ts';

/** The part of a job runner that enqueues (packages/jobs' JobRunner has it). */
export interface AnswerQueue {
  enqueue: (queue: string, data: object, options?: { jobId?: string; priority?: number }) => Promise<void>;
}

/** Only a creator's questions of the last hour count towards the queue position of their next one. */
const FAIRNESS_WINDOW_MS = 3_600_000;

/**
 * The answer queue's fairness: a question's priority is 1 + the number of its creator's earlier
 * questions (of the last hour) still waiting, and lower runs first. One creator's 300th question
 * therefore queues behind every other creator's 1st to 299th, and a flood to one creator never
 * holds up another creator's answers for longer than the jobs already running.
 */
export async function answerPriority(db: Kysely<Database>, messageId: string): Promise<number> {
  const row = await db
    .selectFrom('messages as m')
    .innerJoin('messages as p', 'p.creator_id', 'm.creator_id')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('m.id', '=', messageId)
    .where('p.status', '=', 'pending')
    .where('p.sender', '=', 'fan')
    .where('p.id', '<', (eb) => eb.ref('m.id'))
    .where('p.created_at', '>=', new Date(Date.now() - FAIRNESS_WINDOW_MS))
    .executeTakeFirst();
  return 1 + Number(row?.n ?? 0);
}

/**
 * Hands one fan question to the AI at its fair place in the queue (see answerPriority; pass the
 * priority when already known); a question already queued is not queued twice.
 */
export async function enqueueAnswer(
  db: Kysely<Database>,
  jobs: AnswerQueue,
  messageId: string,
  priority?: number,
): Promise<void> {
  await jobs.enqueue(
    ANSWER_QUEUE,
    { messageId },
    { jobId: answerJobId(messageId), priority: priority ?? (await answerPriority(db, messageId)) },
  );
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
 * Fan questions the AI should answer now: pending, to a creator who is Offline, has a chatbot, has
 * a credit left and has not used up today's AI answer budget. Oldest first.
 */
export async function questionsAwaitingAi(
  db: Kysely<Database>,
  options: AwaitingOptions = {},
): Promise<string[]> {
  return (await awaitingAi(db, options)).map((q) => q.id);
}

/** questionsAwaitingAi with each question's place in its creator's line (1 for the oldest). */
async function awaitingAi(
  db: Kysely<Database>,
  options: AwaitingOptions,
): Promise<{ id: string; priority: number }[]> {
  let query = db
    .selectFrom('messages as m')
    .innerJoin('creators as c', 'c.id', 'm.creator_id')
    .innerJoin('chatbots as b', 'b.creator_id', 'c.id')
    .select(['m.id', sql<string>`row_number() over (partition by m.creator_id order by m.id)`.as('priority')])
    .where('m.sender', '=', 'fan')
    .where('m.status', '=', 'pending')
    .where('c.is_online', '=', false)
    .where(
      sql<boolean>`(select coalesce(sum(l.delta), 0) from credit_ledger l where l.creator_id = c.id) >= ${CREDITS_PER_AI_ANSWER}`,
    )
    .where(
      sql<boolean>`(select count(*) from credit_ledger l where l.creator_id = c.id and l.reason = 'ai_answer'
        and l.created_at >= ${startOfUtcDay(new Date())}) < b.daily_ai_budget`,
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
  return rows.map((r) => ({ id: String(r.id), priority: Number(r.priority) }));
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
  const questions = await awaitingAi(db, options);
  for (const q of questions) await enqueueAnswer(db, jobs, q.id, q.priority);
  return questions.length;
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
