import type { JobHandler } from '@fanpilot/jobs';

/**
 * Hook for the AI answer queue (ANSWER_QUEUE). When the answerer exists, return
 * `{ [ANSWER_QUEUE]: createAnswerHandler(deps) }` here and this worker consumes it beside ingest.
 */
export function answerHandlers(_deps: unknown): Record<string, JobHandler<never>> {
  return {};
}
