import { answerRetryEnvShape } from '@fanpilot/answers';
import {
  connectionsShape,
  deliveryShape,
  EnvError,
  emptyToUndefined,
  envRuleBroken,
  hostList,
  jobsShape,
  modelsShape,
  optionalString,
  parseEnv,
  processShape,
  storageShape,
} from '@fanpilot/config';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

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
  /** Address the api listens on: loopback unless told (containers set 0.0.0.0). */
  HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('.data')),
  ...deliveryShape,
  ...connectionsShape(false),
  ...storageShape,
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  OAUTH_ISSUER: z.preprocess(emptyToUndefined, z.string().url().default('https://accounts.google.com')),
  ...modelsShape,
  INGEST_ALLOWED_PRIVATE_HOSTS: hostList,
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
  /** Live event streams (dashboards and fan chats) one client address may hold in one api process. */
  LIVE_STREAMS_PER_IP: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(20)),
  /** Live event streams one api process holds at most (each about 27 KB); past it, clients poll. */
  LIVE_STREAMS_PER_PROCESS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(5000)),
  /** A live event stream is ended after this many seconds; the browser reconnects and is checked anew. */
  LIVE_STREAM_MAX_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(86_400).default(1800),
  ),
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
   * The browser extension's origins (chrome-extension://<id>, comma-separated): fan calls that carry
   * a fan token may come from them (docs/extension.md).
   */
  EXTENSION_ORIGINS: z.preprocess(
    (v) => (v === undefined ? '' : v),
    z.string().transform((v, ctx) => {
      const list = v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean);
      for (const origin of list) {
        if (!/^(chrome|moz)-extension:\/\/[a-z0-9-]+$/i.test(origin)) {
          ctx.addIssue({
            code: 'custom',
            message: `${origin} is not an extension origin (chrome-extension://<id>)`,
          });
        }
      }
      return list;
    }),
  ),
  /** POST /api/push/subscriptions per minute: from one address, and from one browser (fan cookie). */
  PUSH_SUBSCRIBE_RATE_LIMIT_PER_IP: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).default(30),
  ),
  PUSH_SUBSCRIBE_RATE_LIMIT_PER_FAN: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).default(10),
  ),
  /**
   * Stripe (credit purchases): the secret API key and the webhook endpoint's signing secret. Unset:
   * a local test checkout, or with NODE_ENV=production buying switched off.
   */
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** The signing secret of a Connect webhook endpoint (fans' subscriptions on connected accounts). */
  STRIPE_CONNECT_WEBHOOK_SECRET: optionalString,
  /** A Stripe-compatible API at another address (scheme://host[:port]); unset: Stripe's own. */
  STRIPE_API_BASE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .url()
      .refine((v) => /^https?:\/\//.test(v), 'must start with http:// or https://')
      .optional(),
  ),
  /**
   * The platform's fee on fans' subscriptions to creators, in percent: Stripe's application fee on
   * the creator's connected account (record 0043). 0 to 50, fractions allowed.
   */
  PLATFORM_FEE_PERCENT: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(50).default(10)),
  /** Creator username /fanchat-mobile and /mobile-chat open without ?creator= (else the first onboarded). */
  FANCHAT_DEFAULT_CREATOR: optionalString,
  ...processShape,
  /** Ingest tries and backoff, the answer sweep's interval (the background runtime, in-process). */
  ...jobsShape,
  /** AI answers are retried for a time, not a count of tries (packages/answers/src/retry.ts). */
  ...answerRetryEnvShape,
});

export type Env = z.infer<typeof envSchema>;

export { EnvError };

/** Parses the environment; a bad value throws an EnvError naming every bad variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const [env] = parseEnv(source, envSchema);
  const broken: string[] = [];
  if (env.GOOGLE_CLIENT_ID && !env.GOOGLE_CLIENT_SECRET) {
    broken.push('GOOGLE_CLIENT_SECRET: required when GOOGLE_CLIENT_ID is set');
  }
  if (env.NODE_ENV === 'production' && !env.SESSION_SECRET) {
    broken.push('SESSION_SECRET: required when NODE_ENV=production');
  }
  // The local OpenID stand-in signs anyone in as "Local Creator": never in production.
  if (env.NODE_ENV === 'production' && !env.GOOGLE_CLIENT_ID) {
    broken.push(
      'GOOGLE_CLIENT_ID: required when NODE_ENV=production (the local sign-in stand-in never runs in production)',
    );
  }
  // A renamed setting would otherwise be ignored without a word.
  if (source.PUSH_ALLOWED_PRIVATE_HOSTS) {
    broken.push('PUSH_ALLOWED_PRIVATE_HOSTS: renamed to PUSH_ALLOWED_HOSTS');
  }
  if (broken.length > 0) throw envRuleBroken(broken.join('\n  '));
  return env;
}
