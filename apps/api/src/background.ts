import { type AnswerLogger, createAnswerHandler, requeueAwaitingAnswers } from '@fanpilot/answers';
import { ANSWER_QUEUE, PUSH_QUEUE } from '@fanpilot/contracts';
import type { Database } from '@fanpilot/db';
import type { JobRunner } from '@fanpilot/jobs';
import type { Kysely } from 'kysely';
import type { Env } from './env.ts';
import { createPushHandler, requestPush, type VapidKeys } from './services/push.ts';

export interface AnsweringOptions {
  db: Kysely<Database>;
  jobs: JobRunner;
  env: Env;
  logger: AnswerLogger & { error: (obj: object, msg: string) => void };
  /** Consume ANSWER_QUEUE here; by default only in in-process mode (the worker does with Redis). */
  consume?: boolean;
  /** Web Push: this process delivers PUSH_QUEUE (with Redis too: pushes are the api's to send). */
  push?: { vapid: VapidKeys; allowedHosts: string[] };
}

/**
 * AI answering at api start. In-process mode (no REDIS_URL) this process consumes ANSWER_QUEUE;
 * with Redis, apps/worker does. Either way, questions still pending for Offline creators
 * with credits are re-enqueued, so a crash or restart never loses one (job ids deduplicate and the
 * handler answers a question at most once).
 */
export async function startAnswering(options: AnsweringOptions): Promise<void> {
  const { db, jobs, env, logger } = options;
  if (options.consume ?? jobs.mode === 'in-process') {
    jobs.work({
      [ANSWER_QUEUE]: createAnswerHandler({
        db,
        env,
        logger,
        onAnswered: (replyId) => requestPush(jobs, { kind: 'message', id: replyId }, logger),
      }),
    });
  }
  if (options.push) {
    jobs.work({
      [PUSH_QUEUE]: createPushHandler({ db, jobs, logger, ...options.push }),
    });
  }
  try {
    const requeued = await requeueAwaitingAnswers(db, jobs);
    if (requeued > 0) logger.info({ requeued }, 'pending fan questions handed to the AI');
  } catch (err) {
    logger.error({ err }, 'could not re-enqueue pending fan questions');
  }
}
