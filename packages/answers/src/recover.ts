import { ANSWER_QUEUE, answerJobId, answerJobSchema } from '@fanpilot/contracts';
import {
  aiAnswersSql,
  answerPriority,
  circleAheadSql,
  fanSnapshotColumns,
  handOverToCreator,
  snapshotColumns,
  snapshotRefs,
} from '@fanpilot/core';
import type { Database } from '@fanpilot/db';
import { type Kysely, sql } from 'kysely';

/** The part of a job runner that enqueues (packages/jobs' JobRunner has it). */
export interface AnswerQueue {
  enqueue: (
    queue: string,
    data: object,
    options?: { jobId?: string; priority?: number; replaceFailed?: boolean },
  ) => Promise<void>;
}

/**
 * Hands one fan question to the AI at its fair place in the queue (core's answerPriority; pass the
 * priority when already known, as the ask's forecast does); a question already queued is not queued twice.
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
 * Fan questions the AI should answer now: pending, not handed over, and allowed by the answer
 * policy (the creator Offline, a chatbot, a credit left, room in today's budget). Oldest first.
 */
export async function questionsAwaitingAi(
  db: Kysely<Database>,
  options: AwaitingOptions = {},
): Promise<string[]> {
  return (await awaitingAi(db, options)).map((q) => q.id);
}

/**
 * questionsAwaitingAi with each question's place in its creator's line (1 for the oldest): for each
 * creator with pending questions, as many of their oldest as the answer policy lets the AI answer,
 * each counted with the questions ahead of it (the policy's SQL rendering, answerDecisionSql).
 */
async function awaitingAi(
  db: Kysely<Database>,
  options: AwaitingOptions,
): Promise<{ id: string; priority: number }[]> {
  const none = sql.raw('');
  const now = Date.now();
  const result = await sql<{ id: string; priority: string }>`
    with snapshot as (
      select c.id as creator_id, ${snapshotColumns(new Date(now))}
      from creators c
      where exists (select 1 from messages p where p.creator_id = c.id and p.status = 'pending' and p.sender = 'fan')
        ${options.creatorId ? sql`and c.id = ${options.creatorId}` : none}
    ), lined as (
      select m.id, row_number() over (partition by m.creator_id order by m.id) as priority,
        case when s.free_allowance is null then 0 else ${circleAheadSql(sql`m.id`, sql`m.fan_id`)} end as fan_ahead,
        ${fanSnapshotColumns(sql`m.fan_id`, new Date(now), sql`s.free_allowance is not null`)}, s.*
      from messages m
      join snapshot s on s.creator_id = m.creator_id
      where m.sender = 'fan' and m.status = 'pending' and m.ai_handed_over_at is null
        ${options.olderThanMs !== undefined ? sql`and m.created_at <= ${new Date(now - options.olderThanMs)}` : none}
        ${options.newerThanMs !== undefined ? sql`and m.created_at >= ${new Date(now - options.newerThanMs)}` : none}
    )
    select id, priority from lined
    where ${aiAnswersSql(snapshotRefs('lined', sql`(lined.priority - 1)`, sql`lined.fan_ahead`))}
    order by id limit ${options.limit ?? 1000}
  `.execute(db);
  return result.rows.map((r) => ({ id: String(r.id), priority: Number(r.priority) }));
}

/**
 * Re-enqueues what the AI should answer: at start (in-process jobs die with their process; Redis
 * may have lost its data), and as the `answer-policy-inputs-changed` job (record 0077).
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

/**
 * The job runner's `onError` part for answer jobs: a failure that was the last try hands the
 * question over to the creator. Other queues and non-final failures are left alone. The promise
 * settles once the hand-over is stored (it never rejects: a failure is logged).
 */
export function handOverOnFinalFailure(
  db: Kysely<Database>,
  log: { warn: (obj: object, msg: string) => void },
) {
  return (queue: string, data: unknown, final: boolean): Promise<void> => {
    if (queue !== ANSWER_QUEUE || !final) return Promise.resolve();
    const parsed = answerJobSchema.safeParse(data);
    if (!parsed.success) return Promise.resolve();
    return handOverToCreator(db, parsed.data.messageId).then(
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
