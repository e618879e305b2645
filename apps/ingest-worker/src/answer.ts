import { ANSWER_QUEUE } from '@fanpilot/contracts';
import type { Database } from '@fanpilot/db';
import type { JobHandler } from '@fanpilot/jobs';
import { type AnswerLogger, createAnswerHandler, type ModelEnv } from '@fanpilot/knowledge/answer';
import type { Kysely } from 'kysely';

/** The AI answer queue: with Redis, the api only enqueues and this worker answers, beside ingest. */
export function answerHandlers(deps: {
  db: Kysely<Database>;
  env: ModelEnv;
  logger: AnswerLogger;
}): Record<string, JobHandler<never>> {
  return { [ANSWER_QUEUE]: createAnswerHandler({ db: deps.db, env: deps.env, logger: deps.logger }) };
}
