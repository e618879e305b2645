import { answerRetryEnvShape } from '@fanpilot/answers';
import {
  connectionsShape,
  deliveryShape,
  EnvError,
  emptyToUndefined,
  jobsShape,
  modelsShape,
  parseEnv,
  processShape,
  storageShape,
} from '@fanpilot/config';
import { type IngestEnv, ingestEnvSchema } from '@fanpilot/knowledge';
import { z } from 'zod';

export const workerEnvSchema = z.object({
  ...connectionsShape(true),
  ...storageShape,
  ...modelsShape,
  ...processShape,
  ...jobsShape,
  /** Push, mail and the creators' alerts: delivered here too when their keys are set (record 0077). */
  ...deliveryShape,
  /**
   * Jobs in flight. More than the parser threads, so one job's download and database writes overlap
   * another's parsing (the parser threads, at most one per core, are the CPU-bound part).
   */
  WORKER_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(64).default(4)),
  /**
   * AI answers in flight: they wait on the model (I/O, not CPU), so many more than WORKER_CONCURRENCY;
   * with one creator's questions queued, another creator's question still starts at once.
   */
  WORKER_ANSWER_CONCURRENCY: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(256).default(8),
  ),
  WORKER_HEALTH_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3100)),
  WORKER_HEALTH_HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
  /** How long a shutdown waits for jobs in flight before giving up. */
  WORKER_SHUTDOWN_TIMEOUT_MS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1000).default(60_000),
  ),
  /** AI answers are retried for a time, not a count of tries (packages/answers/src/retry.ts). */
  ...answerRetryEnvShape,
});

export type WorkerEnv = z.infer<typeof workerEnvSchema> & { ingest: IngestEnv };

export { EnvError as WorkerEnvError };

/** Parses the worker's environment; a bad value throws naming every bad variable. */
export function loadWorkerEnv(source: NodeJS.ProcessEnv = process.env): WorkerEnv {
  const [env, ingest] = parseEnv(source, workerEnvSchema, ingestEnvSchema);
  return { ...env, ingest };
}
