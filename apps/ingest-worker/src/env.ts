import { type IngestEnv, ingestEnvSchema } from '@fanpilot/knowledge';
import { answerRetryEnvShape } from '@fanpilot/knowledge/answer';
import { z } from 'zod';

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const optionalUrl = z.preprocess(emptyToUndefined, z.string().url().optional());

export const workerEnvSchema = z.object({
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string({ error: 'is required (postgres://…)' })
      .refine((v) => /^postgres(ql)?:\/\//.test(v), 'must be a postgres:// URL'),
  ),
  REDIS_URL: z.preprocess(
    emptyToUndefined,
    z
      .string({ error: 'is required (redis://…)' })
      .refine((v) => /^rediss?:\/\//.test(v), 'must be a redis:// URL'),
  ),
  S3_ENDPOINT: optionalUrl,
  S3_PUBLIC_ENDPOINT: optionalUrl,
  S3_REGION: z.preprocess(emptyToUndefined, z.string().default('us-east-1')),
  S3_BUCKET: z.preprocess(emptyToUndefined, z.string().default('fanpilot')),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: z.preprocess(
    emptyToUndefined,
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'])
      .optional()
      .transform((v) => (v === undefined ? undefined : ['true', '1', 'yes'].includes(v))),
  ),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalUrl,
  ANTHROPIC_API_KEY: optionalString,
  GOOGLE_GENAI_API_KEY: optionalString,
  DEEPSEEK_API_KEY: optionalString,
  /**
   * Jobs in flight. More than the parser threads, so one job's download and database writes overlap
   * another's parsing (the parser threads, at most one per core, are the CPU-bound part).
   */
  WORKER_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(64).default(4)),
  WORKER_HEALTH_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3100)),
  WORKER_HEALTH_HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  /** How long a shutdown waits for jobs in flight before giving up. */
  WORKER_SHUTDOWN_TIMEOUT_MS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1000).default(60_000),
  ),
  /**
   * How often the worker looks for fan questions an api stored but never queued (it stopped in
   * between) and hands them to the AI; 0 turns the sweep off.
   */
  ANSWER_SWEEP_INTERVAL_MS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int()
      .min(0)
      .refine((n) => n === 0 || n >= 1000, 'must be 0 (off) or at least 1000')
      .default(60_000),
  ),
  /** Prefix of BullMQ's keys; must match the api's (tests isolate themselves with it). */
  JOBS_PREFIX: z.preprocess(emptyToUndefined, z.string().default('fanpilot')),
  JOBS_ATTEMPTS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(20).default(5)),
  JOBS_BACKOFF_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10).default(2000)),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  /** AI answers are retried for a time, not a count of tries (packages/knowledge answer/retry.ts). */
  ...answerRetryEnvShape,
});

export type WorkerEnv = z.infer<typeof workerEnvSchema> & { ingest: IngestEnv };

export class WorkerEnvError extends Error {}

/** Parses the worker's environment; a bad value throws naming every bad variable. */
export function loadWorkerEnv(source: NodeJS.ProcessEnv = process.env): WorkerEnv {
  const own = workerEnvSchema.safeParse(source);
  const ingest = ingestEnvSchema.safeParse(source);
  const issues = [...(own.success ? [] : own.error.issues), ...(ingest.success ? [] : ingest.error.issues)];
  if (!own.success || !ingest.success) {
    const lines = issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new WorkerEnvError(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  const env = own.data;
  if (env.S3_ENDPOINT && (!env.S3_ACCESS_KEY_ID || !env.S3_SECRET_ACCESS_KEY)) {
    throw new WorkerEnvError(
      'Invalid environment configuration:\n  S3_ACCESS_KEY_ID: required (with S3_SECRET_ACCESS_KEY) when S3_ENDPOINT is set',
    );
  }
  return { ...env, ingest: ingest.data };
}
