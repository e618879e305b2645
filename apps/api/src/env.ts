import { answerRetryEnvShape } from '@fanpilot/knowledge/answer';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const optionalUrl = z.preprocess(emptyToUndefined, z.string().url().optional());
const booleanish = z.preprocess(
  emptyToUndefined,
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((v) => (v === undefined ? undefined : ['true', '1', 'yes'].includes(v))),
);

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
function isProxyAddress(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  if (entry.includes('/')) {
    try {
      ipaddr.parseCIDR(entry);
      return true;
    } catch {
      return false;
    }
  }
  return ipaddr.isValid(entry);
}

export const envSchema = z.object({
  NODE_ENV: z.preprocess(
    emptyToUndefined,
    z.enum(['development', 'production', 'test']).default('development'),
  ),
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
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
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('.data')),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => /^postgres(ql)?:\/\//.test(v), 'must be a postgres:// URL')
      .optional(),
  ),
  REDIS_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => /^rediss?:\/\//.test(v), 'must be a redis:// URL')
      .optional(),
  ),
  S3_ENDPOINT: optionalUrl,
  /** Where browsers reach the store, when it differs from S3_ENDPOINT (e.g. inside docker compose). */
  S3_PUBLIC_ENDPOINT: optionalUrl,
  S3_REGION: z.preprocess(emptyToUndefined, z.string().default('us-east-1')),
  S3_BUCKET: z.preprocess(emptyToUndefined, z.string().default('fanpilot')),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: booleanish,
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  OAUTH_ISSUER: z.preprocess(emptyToUndefined, z.string().url().default('https://accounts.google.com')),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalUrl,
  ANTHROPIC_API_KEY: optionalString,
  GOOGLE_GENAI_API_KEY: optionalString,
  DEEPSEEK_API_KEY: optionalString,
  INGEST_ALLOWED_PRIVATE_HOSTS: z.preprocess(
    (v) => (v === undefined ? '' : v),
    z.string().transform((v) =>
      v
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
  ),
  /** POST /api/ask: messages one fan may send one creator per window. */
  ASK_RATE_LIMIT_PER_FAN: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(30)),
  /** POST /api/ask: messages one address may send per window, across fans and creators. */
  ASK_RATE_LIMIT_PER_IP: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(600)),
  ASK_RATE_LIMIT_WINDOW_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(86_400).default(60),
  ),
  /** GET /api/chatlog/fan/*: fan chat reads one address may make per minute (a brake on guessing fan ids). */
  FAN_READ_RATE_LIMIT_PER_IP: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(120)),
  /** New fans (a fan id's first question to a creator) one address may start per window; never a cap per creator. */
  NEW_FANS_PER_IP: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(60)),
  /** Length of that window, in seconds. */
  NEW_FANS_WINDOW_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(86_400).default(600),
  ),
  /**
   * Proxies whose X-Forwarded-For / X-Forwarded-Proto / X-Forwarded-Host the api believes: a
   * comma-separated list of addresses, CIDR ranges, or proxy-addr's names `loopback`, `linklocal`,
   * `uniquelocal`. Unset: nobody (the connection's address is the client's).
   */
  TRUST_PROXY: z.preprocess(
    (v) => (v === undefined ? '' : v),
    z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((h) => h.trim())
          .filter(Boolean),
      )
      .superRefine((entries, ctx) => {
        for (const entry of entries) {
          if (!isProxyAddress(entry))
            ctx.addIssue({
              code: 'custom',
              message: `"${entry}" is not an address, a CIDR range, loopback, linklocal or uniquelocal`,
            });
        }
      }),
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
  /** Push endpoints on private addresses allowed anyway (host[:port], comma-separated; tests only). */
  PUSH_ALLOWED_PRIVATE_HOSTS: z.preprocess(
    (v) => (v === undefined ? '' : v),
    z.string().transform((v) =>
      v
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
  ),
  /** Stripe (credit purchases): the secret API key and the webhook endpoint's signing secret. Unset: a local test checkout. */
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** Creator username /fanchat-mobile and /mobile-chat open without ?creator= (else the first onboarded). */
  FANCHAT_DEFAULT_CREATOR: optionalString,
  /** Prefix of BullMQ's keys (and of the rate-limit counters) in Redis; the worker's must match. */
  JOBS_PREFIX: z.preprocess(emptyToUndefined, z.string().default('fanpilot')),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  /** AI answers are retried for a time, not a count of tries (packages/knowledge answer/retry.ts). */
  ...answerRetryEnvShape,
});

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {}

/** Parses the environment; a bad value throws an EnvError naming every bad variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new EnvError(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  if (env.GOOGLE_CLIENT_ID && !env.GOOGLE_CLIENT_SECRET) {
    throw new EnvError(
      'Invalid environment configuration:\n  GOOGLE_CLIENT_SECRET: required when GOOGLE_CLIENT_ID is set',
    );
  }
  if (env.S3_ENDPOINT && (!env.S3_ACCESS_KEY_ID || !env.S3_SECRET_ACCESS_KEY)) {
    throw new EnvError(
      'Invalid environment configuration:\n  S3_ACCESS_KEY_ID: required (with S3_SECRET_ACCESS_KEY) when S3_ENDPOINT is set',
    );
  }
  if (env.NODE_ENV === 'production' && !env.SESSION_SECRET) {
    throw new EnvError(
      'Invalid environment configuration:\n  SESSION_SECRET: required when NODE_ENV=production',
    );
  }
  return env;
}
