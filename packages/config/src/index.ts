import { z } from 'zod';

// The environment, read once: the variables the api and the worker share are defined here, once, and
// each app composes them with its own. A bad value stops the process with a message naming it.

/** A blank value counts as unset. */
export const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
export const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
export const optionalUrl = z.preprocess(emptyToUndefined, z.string().url().optional());
export const booleanish = z.preprocess(
  emptyToUndefined,
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((v) => (v === undefined ? undefined : ['true', '1', 'yes'].includes(v))),
);
/** A comma-separated list of host names (lower-cased, blanks dropped); unset is empty. */
export const hostList = z.preprocess(
  (v) => (v === undefined ? '' : v),
  z.string().transform((v) =>
    v
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  ),
);

const postgresUrl = z.string().refine((v) => /^postgres(ql)?:\/\//.test(v), 'must be a postgres:// URL');
const redisUrl = z.string().refine((v) => /^rediss?:\/\//.test(v), 'must be a redis:// URL');

/** PostgreSQL and Redis: optional for the api (embedded defaults), required for the worker. */
export const connectionsShape = (required: boolean) => ({
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    required ? z.string({ error: 'is required (postgres://…)' }).pipe(postgresUrl) : postgresUrl.optional(),
  ),
  REDIS_URL: z.preprocess(
    emptyToUndefined,
    required ? z.string({ error: 'is required (redis://…)' }).pipe(redisUrl) : redisUrl.optional(),
  ),
});

/** Object storage: any S3-compatible store; unset, the embedded one (api) on loopback. */
export const storageShape = {
  S3_ENDPOINT: optionalUrl,
  /** Where browsers reach the store, when it differs from S3_ENDPOINT (e.g. inside docker compose). */
  S3_PUBLIC_ENDPOINT: optionalUrl,
  S3_REGION: z.preprocess(emptyToUndefined, z.string().default('us-east-1')),
  S3_BUCKET: z.preprocess(emptyToUndefined, z.string().default('fanpilot')),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: booleanish,
};

/** Chat model providers (langchain) and the embedding model; a provider without a key is not used. */
export const modelsShape = {
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalUrl,
  ANTHROPIC_API_KEY: optionalString,
  GOOGLE_GENAI_API_KEY: optionalString,
  DEEPSEEK_API_KEY: optionalString,
  /** The embedding model for retrieval (OpenAI's text-embedding-3-small when unset). */
  EMBEDDING_MODEL: optionalString,
  /**
   * Which embedder retrieval uses: `auto` (the OpenAI-compatible API when OPENAI_API_KEY is set, else
   * the local sentence encoder installed from npm), `api`, `local`, or `off` (full-text only).
   */
  EMBEDDINGS: z.preprocess(emptyToUndefined, z.enum(['auto', 'api', 'local', 'off']).optional()),
};

/** Jobs and logs: the BullMQ key prefix (the api's and the worker's must match) and the log level. */
export const processShape = {
  /** Prefix of BullMQ's keys (and of the api's rate-limit counters) in Redis. */
  JOBS_PREFIX: z.preprocess(emptyToUndefined, z.string().default('fanpilot')),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
};

/**
 * The background runtime's settings, the same in the api's in-process mode and in the worker:
 * tries and backoff of ingest jobs, and how often the answer sweep runs.
 */
export const jobsShape = {
  /** Attempts a knowledge item gets before it fails (the knowledge sweep counts the same). */
  JOBS_ATTEMPTS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(20).default(5)),
  /** Delay before the first retry of a job, doubling (queues without a retry policy of their own). */
  JOBS_BACKOFF_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10).default(2000)),
};

/**
 * Delivery (push, mail, the creators' alerts): what any process needs to deliver them, so the api
 * and a worker read the same variables (record 0077). A worker runs a delivery role when its keys are
 * set (VAPID keys: push; SMTP_URL: mail; PUBLIC_ORIGIN and SESSION_SECRET: alerts).
 */
export const deliveryShape = {
  PUBLIC_ORIGIN: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .url()
      .refine((v) => /^https?:\/\//.test(v), 'must start with http:// or https://')
      .transform((v) => new URL(v).origin)
      .optional(),
  ),
  SESSION_SECRET: z.preprocess(
    emptyToUndefined,
    z.string().min(16, 'must be at least 16 characters').optional(),
  ),
  /**
   * Web Push (VAPID, RFC 8292): the key pair (base64url, as web-push's generateVAPIDKeys() gives
   * them) and a contact (mailto: or https:). Keys unset: generated once and kept under DATA_DIR.
   */
  VAPID_PUBLIC_KEY: optionalString,
  VAPID_PRIVATE_KEY: optionalString,
  VAPID_SUBJECT: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^(mailto:|https:\/\/)\S+$/, 'must be a mailto: address or an https:// URL')
      .optional(),
  ),
  /**
   * Push services allowed beside the browsers' own (FCM, Mozilla, Apple, Microsoft): host[:port],
   * comma-separated; http and private addresses allowed for these (tests: the loopback service).
   */
  PUSH_ALLOWED_HOSTS: hostList,
  /**
   * Email (record 0042): an SMTP server as a URL, smtp://user:pass@host:587 or smtps://…:465
   * (nodemailer's URL options apply). Unset: mail is written to the local outbox under
   * DATA_DIR/outbox, or with NODE_ENV=production mail is off and the features needing it say so.
   */
  SMTP_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .url()
      .refine((v) => /^smtps?:\/\//.test(v), 'must start with smtp:// or smtps://')
      .optional(),
  ),
  /** The From header of every mail, e.g. "Fanpilot <hello@example.com>"; unset: no-reply at PUBLIC_ORIGIN's host. */
  MAIL_FROM: optionalString,
  /**
   * Creator alerts (record 0061): how long a creator's first alert waits for others to join it, so
   * a burst is one email and one push (milliseconds; 2 minutes).
   */
  ALERT_GROUP_WINDOW_MS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(0).max(3_600_000).default(120_000),
  ),
};

/** A refusal of the environment: its message names every bad variable. */
export class EnvError extends Error {}

const report = (lines: string[]) => new EnvError(`Invalid environment configuration:\n${lines.join('\n')}`);

/**
 * Parses `source` with each schema (an app's own, the ingest pipeline's…) and throws one EnvError
 * naming every bad variable of all of them; then the rules across variables.
 */
export function parseEnv<S extends z.ZodType[]>(
  source: Record<string, unknown>,
  ...schemas: S
): { [K in keyof S]: z.output<S[K]> } {
  const results = schemas.map((schema) => schema.safeParse(source));
  const lines = results.flatMap((r) =>
    r.success ? [] : r.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`),
  );
  if (lines.length > 0) throw report(lines);
  const values = results.map((r) => r.data) as { [K in keyof S]: z.output<S[K]> };
  const storage = values[0] as {
    S3_ENDPOINT?: string;
    S3_ACCESS_KEY_ID?: string;
    S3_SECRET_ACCESS_KEY?: string;
  };
  if (storage.S3_ENDPOINT && (!storage.S3_ACCESS_KEY_ID || !storage.S3_SECRET_ACCESS_KEY)) {
    throw report(['  S3_ACCESS_KEY_ID: required (with S3_SECRET_ACCESS_KEY) when S3_ENDPOINT is set']);
  }
  return values;
}

/** A rule across variables broken: the same message shape as a bad value. */
export const envRuleBroken = (line: string) => report([`  ${line}`]);

/** The object store's settings from the storage variables (a store given by S3_ENDPOINT is path-style unless told). */
export function storageSettings(env: {
  S3_ENDPOINT?: string | undefined;
  S3_PUBLIC_ENDPOINT?: string | undefined;
  S3_REGION: string;
  S3_BUCKET: string;
  S3_ACCESS_KEY_ID?: string | undefined;
  S3_SECRET_ACCESS_KEY?: string | undefined;
  S3_FORCE_PATH_STYLE?: boolean | undefined;
}) {
  return {
    endpoint: env.S3_ENDPOINT,
    publicEndpoint: env.S3_PUBLIC_ENDPOINT ?? env.S3_ENDPOINT,
    region: env.S3_REGION,
    bucket: env.S3_BUCKET,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? Boolean(env.S3_ENDPOINT),
  };
}
