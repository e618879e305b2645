import { type AnswerLogger, createAnswerHandler, type ModelEnv } from '@fanpilot/answers';
import { ANSWER_QUEUE, PUSH_QUEUE, pushFanOutJobId } from '@fanpilot/contracts';
import type { Database } from '@fanpilot/db';
import type { JobHandler, JobRunner } from '@fanpilot/jobs';
import type { Kysely } from 'kysely';

/**
 * The AI answer queue: with Redis, the api only enqueues and this worker answers, beside ingest.
 * An answer stored is handed to the api's push delivery (PUSH_QUEUE), so the fan hears of it.
 */
export function answerHandlers(deps: {
  db: Kysely<Database>;
  env: ModelEnv;
  logger: AnswerLogger;
  jobs: Pick<JobRunner, 'enqueue'>;
}): Record<string, JobHandler<never>> {
  return {
    [ANSWER_QUEUE]: createAnswerHandler({
      db: deps.db,
      env: deps.env,
      logger: deps.logger,
      onAnswered: async (replyId) => {
        const job = { kind: 'message' as const, id: replyId };
        await deps.jobs
          .enqueue(PUSH_QUEUE, job, { jobId: pushFanOutJobId(job) })
          .catch((err: unknown) => deps.logger.warn({ err, job }, 'push not requested'));
      },
    }),
  };
}
