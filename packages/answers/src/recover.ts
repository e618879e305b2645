import { ANSWER_QUEUE, answerJobId, answerJobSchema, CREDITS_PER_AI_ANSWER } from '@fanpilot/contracts';
import { aiAllowance, handOverToCreator, startOfUtcDay } from '@fanpilot/core';
import type { Database } from '@fanpilot/db';
import { runEvery } from '@fanpilot/knowledge';
import { type Kysely, sql } from 'kysely';

/** The part of a job runner that enqueues (packages/jobs' JobRunner has it). */
export interface AnswerQueue {
  enqueue: (
    queue: string,
    data: object,
    options?: { jobId?: string; priority?: number; replaceFailed?: boolean },
  ) => Promise<void>;
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
 * Whether the AI will answer this pending question: the creator has a chatbot, and credits and
 * room in today's budget for it after their questions already waiting ahead of it (so a burst of
 * questions is not promised more answers than the budget holds). The creator's Offline status is
 * the caller's business. Also the question's queue priority (see answerPriority).
 */
export async function forecastAiAnswer(
  db: Kysely<Database>,
  creatorId: string,
  messageId: string,
  now: Date = new Date(),
): Promise<{ answers: boolean; priority: number }> {
  const allowance = await aiAllowance(db, creatorId, now);
  const priority = await answerPriority(db, messageId);
  const ahead = priority - 1;
  const answers =
    allowance.refusal === null &&
    ahead < allowance.affordable &&
    allowance.answersToday + ahead < (allowance.dailyBudget ?? 0);
  return { answers, priority };
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
  options: { replaceFailed?: boolean } = {},
): Promise<void> {
  await jobs.enqueue(
    ANSWER_QUEUE,
    { messageId },
    {
      jobId: answerJobId(messageId),
      priority: priority ?? (await answerPriority(db, messageId)),
      ...(options.replaceFailed ? { replaceFailed: true } : {}),
    },
  );
}

export interface AwaitingOptions {
  creatorId?: string;
  limit?: number;
  /** Only questions asked at least this long ago. */
  olderThanMs?: number;
  /** Only questions asked at most this long ago. */
  newerThanMs?: number;
  /** Also re-queue a question whose last job failed for good (its tries ran out). */
  replaceFailed?: boolean;
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

/**
 * questionsAwaitingAi with each question's place in its creator's line (1 for the oldest): for each
 * Offline creator with a chatbot, as many of their oldest pending questions as they have credits
 * and budget left today for.
 */
async function awaitingAi(
  db: Kysely<Database>,
  options: AwaitingOptions,
): Promise<{ id: string; priority: number }[]> {
  const none = sql.raw('');
  const now = Date.now();
  const result = await sql<{ id: string; priority: string }>`
    with allowance as (
      select c.id as creator_id, least(
        (select coalesce(max(t.balance), 0) from credit_totals t where t.creator_id = c.id) / ${CREDITS_PER_AI_ANSWER},
        b.daily_ai_budget - (select count(*) from credit_ledger l where l.creator_id = c.id
          and l.reason = 'ai_answer' and l.created_at >= ${startOfUtcDay(new Date(now))})
      ) as room
      from creators c
      join chatbots b on b.creator_id = c.id
      where c.is_online = false
        and exists (select 1 from messages p where p.creator_id = c.id and p.status = 'pending' and p.sender = 'fan')
        ${options.creatorId ? sql`and c.id = ${options.creatorId}` : none}
    ), lined as (
      select m.id, row_number() over (partition by m.creator_id order by m.id) as priority, a.room
      from messages m
      join allowance a on a.creator_id = m.creator_id
      where m.sender = 'fan' and m.status = 'pending' and m.ai_handed_over_at is null
        ${options.olderThanMs !== undefined ? sql`and m.created_at <= ${new Date(now - options.olderThanMs)}` : none}
        ${options.newerThanMs !== undefined ? sql`and m.created_at >= ${new Date(now - options.newerThanMs)}` : none}
    )
    select id, priority from lined where priority <= room order by id limit ${options.limit ?? 1000}
  `.execute(db);
  return result.rows.map((r) => ({ id: String(r.id), priority: Number(r.priority) }));
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
  for (const q of questions) {
    await enqueueAnswer(db, jobs, q.id, q.priority, { replaceFailed: options.replaceFailed ?? false });
  }
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
 * not enqueue (it stopped in between, or Redis was down), and one whose tries ran out while the
 * model was failing, once a sweep comes round (the failed job is replaced). Job ids make it harmless:
 * a question whose job waits or runs is not queued twice, and the handler answers a question at most
 * once and charges it once. Returns a stop function.
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
        replaceFailed: true,
      });
      if (n > 0) options.onRequeued?.(n);
    },
    { onError: options.onError },
  );
}

/**
 * The job runner's `onError` part for answer jobs: a failure that was the last try hands the
 * question over to the creator. Other queues and non-final failures are left alone.
 */
export function handOverOnFinalFailure(
  db: Kysely<Database>,
  log: { warn: (obj: object, msg: string) => void },
) {
  return (queue: string, data: unknown, final: boolean): void => {
    if (queue !== ANSWER_QUEUE || !final) return;
    const parsed = answerJobSchema.safeParse(data);
    if (!parsed.success) return;
    handOverToCreator(db, parsed.data.messageId).then(
      (handed) => {
        if (handed)
          log.warn(
            { messageId: parsed.data.messageId },
            'the AI gave up on a question; the creator answers it',
          );
      },
      (err: unknown) =>
        log.warn({ err, messageId: parsed.data.messageId }, 'could not hand a question over to the creator'),
    );
  };
}
