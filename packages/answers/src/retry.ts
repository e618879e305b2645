import { ANSWER_QUEUE } from '@fanpilot/contracts';
import { z } from 'zod';

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const ms = (def: number, min: number, max: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(min).max(max).default(def));

/**
 * How long an AI answer is retried while the model provider fails, shared by the api (which adds
 * answer jobs) and apps/worker (which runs them): a budget in time, not a count of tries.
 */
export const answerRetryEnvShape = {
  /** Tries go on for this long after the first (1 hour), then the question is the creator's. */
  ANSWER_RETRY_FOR_MS: ms(3_600_000, 1_000, 24 * 3_600_000),
  /** The first wait between tries (2 s), doubling each time… */
  ANSWER_RETRY_BACKOFF_MS: ms(2_000, 10, 600_000),
  /** …up to this (5 minutes). */
  ANSWER_RETRY_MAX_BACKOFF_MS: ms(300_000, 10, 3_600_000),
};

export interface AnswerRetryEnv {
  ANSWER_RETRY_FOR_MS: number;
  ANSWER_RETRY_BACKOFF_MS: number;
  ANSWER_RETRY_MAX_BACKOFF_MS: number;
}

/** The job runner's `retry` option for the answer queue. */
export function answerRetryPolicy(env: AnswerRetryEnv) {
  return {
    [ANSWER_QUEUE]: {
      backoffMs: env.ANSWER_RETRY_BACKOFF_MS,
      maxBackoffMs: Math.max(env.ANSWER_RETRY_BACKOFF_MS, env.ANSWER_RETRY_MAX_BACKOFF_MS),
      retryForMs: env.ANSWER_RETRY_FOR_MS,
    },
  };
}
