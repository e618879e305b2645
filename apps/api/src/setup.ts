import path from 'node:path';
import { MODEL_ROUTES, type Provider, providerKey } from '@fanpilot/answers';
import { DEFAULT_MODEL, type ModelChoice } from '@fanpilot/contracts';
import { embeddingsMode, LOCAL_ENCODER_ID } from '@fanpilot/knowledge';
import { mailModeOf, outboxDirOf } from '@fanpilot/mail';
import type { RuntimeConfig } from './config.ts';
import type { Env } from './env.ts';
import type { Payments } from './services/billing.ts';

/** One part of the running product: what serves it, and whether it is a built-in (embedded) one. */
export interface SetupPart {
  part:
    | 'database'
    | 'objects'
    | 'jobs'
    | 'sign-in'
    | 'payments'
    | 'fan subscriptions'
    | 'email'
    | 'push keys'
    | 'session secret'
    | 'answerer'
    | 'embeddings';
  what: string;
  embedded: boolean;
}

/**
 * What this api process runs on, part by part, for the start-up log: every embedded part in use is
 * named (PGlite, the loopback S3 store, in-process jobs, keys kept under DATA_DIR…), so a production
 * start on one machine says plainly what it relies on.
 */
export function describeSetup(input: {
  env: Env;
  config: Pick<RuntimeConfig, 'oauth' | 's3'>;
  database: 'postgres' | 'pglite';
  jobs: 'redis' | 'in-process';
  payments: Payments;
}): SetupPart[] {
  const { env, config, payments } = input;
  const dataDir = path.resolve(env.DATA_DIR);
  const external = Boolean(env.S3_ENDPOINT || env.S3_ACCESS_KEY_ID);
  return [
    input.database === 'pglite'
      ? { part: 'database', what: `PGlite (embedded) at ${path.join(dataDir, 'pglite')}`, embedded: true }
      : { part: 'database', what: 'PostgreSQL (DATABASE_URL)', embedded: false },
    external
      ? { part: 'objects', what: `S3 at ${env.S3_ENDPOINT ?? 'AWS'}`, embedded: false }
      : {
          part: 'objects',
          what: `embedded S3 store (s3rver) on loopback at ${config.s3.endpoint}, files under ${path.join(dataDir, 's3')}`,
          embedded: true,
        },
    input.jobs === 'in-process'
      ? { part: 'jobs', what: 'in-process (no REDIS_URL)', embedded: true }
      : { part: 'jobs', what: 'BullMQ on Redis (REDIS_URL)', embedded: false },
    config.oauth.local
      ? {
          part: 'sign-in',
          what: 'local OpenID stand-in, signs everyone in as Local Creator (dev only)',
          embedded: true,
        }
      : { part: 'sign-in', what: `OpenID provider ${config.oauth.issuer}`, embedded: false },
    payments.stripe
      ? {
          part: 'payments',
          what: `Stripe${env.STRIPE_API_BASE ? ` at ${env.STRIPE_API_BASE}` : ''}`,
          embedded: false,
        }
      : payments.testCheckout
        ? { part: 'payments', what: 'local test checkout, grants credits without payment', embedded: true }
        : {
            part: 'payments',
            what: 'off: buying credits is switched off (no STRIPE_SECRET_KEY)',
            embedded: false,
          },
    ...(payments.localFans
      ? [
          {
            part: 'fan subscriptions' as const,
            what: 'local Stripe stand-in on loopback, test pages, no real money (dev only)',
            embedded: true,
          },
        ]
      : []),
    emailPart(env, dataDir),
    env.VAPID_PUBLIC_KEY
      ? { part: 'push keys', what: 'VAPID keys from the environment', embedded: false }
      : { part: 'push keys', what: `VAPID keys generated and kept under ${dataDir}`, embedded: true },
    env.SESSION_SECRET
      ? { part: 'session secret', what: 'SESSION_SECRET', embedded: false }
      : { part: 'session secret', what: `generated and kept under ${dataDir}`, embedded: true },
    answererPart(env),
    embeddingsPart(env),
  ];
}

const PROVIDERS: Record<Provider, { label: string; key: string }> = {
  openai: { label: 'OpenAI', key: 'OPENAI_API_KEY' },
  anthropic: { label: 'Anthropic', key: 'ANTHROPIC_API_KEY' },
  google: { label: 'Google', key: 'GOOGLE_GENAI_API_KEY' },
  deepseek: { label: 'DeepSeek', key: 'DEEPSEEK_API_KEY' },
};

/**
 * Who answers fans while a creator is Offline: the model providers with a key (each chatbot's model
 * setting picks one), or, with none, the embedded honest answerer that quotes the creator's sources.
 */
function answererPart(env: Env): SetupPart {
  const models = Object.entries(MODEL_ROUTES) as [ModelChoice, { provider: Provider }][];
  const served = (Object.keys(PROVIDERS) as Provider[]).filter((p) => providerKey(p, env));
  if (served.length === 0) {
    return {
      part: 'answerer',
      what: `quotes only: the embedded honest answerer quotes the creator's sources (no model key: ${Object.values(
        PROVIDERS,
      )
        .map((p) => p.key)
        .join(', ')})`,
      embedded: true,
    };
  }
  const providers = served.map((p) => {
    const at = p === 'openai' && env.OPENAI_BASE_URL ? ` at ${env.OPENAI_BASE_URL}` : '';
    const names = models.filter(([, r]) => r.provider === p).map(([m]) => m);
    return `${PROVIDERS[p].label}${at} (${PROVIDERS[p].key}: ${names.join(', ')})`;
  });
  const unserved = models.filter(([, r]) => !served.includes(r.provider)).map(([m]) => m);
  const fallback = unserved.length > 0 ? `; quotes only for ${unserved.join(', ')} (no key)` : '';
  return {
    part: 'answerer',
    what: `${providers.join(', ')}; new chatbots use ${DEFAULT_MODEL}${fallback}`,
    embedded: false,
  };
}

/** What retrieval embeds passages and questions with (docs/knowledge.md). */
function embeddingsPart(env: Env): SetupPart {
  const mode = embeddingsMode(env);
  if (mode === 'api') {
    const at = env.OPENAI_BASE_URL ? ` at ${env.OPENAI_BASE_URL}` : '';
    return {
      part: 'embeddings',
      what: `${env.EMBEDDING_MODEL || 'text-embedding-3-small'} from the OpenAI API${at} (OPENAI_API_KEY)`,
      embedded: false,
    };
  }
  if (mode === 'local') {
    return {
      part: 'embeddings',
      what: `local sentence encoder (${LOCAL_ENCODER_ID}, in this process)`,
      embedded: true,
    };
  }
  return {
    part: 'embeddings',
    what: `off: full-text search only (${env.EMBEDDINGS === 'off' ? 'EMBEDDINGS=off' : `EMBEDDINGS=${env.EMBEDDINGS} without OPENAI_API_KEY`})`,
    embedded: false,
  };
}

function emailPart(env: Env, dataDir: string): SetupPart {
  const mode = mailModeOf(env);
  if (mode === 'smtp') {
    // The host only: the URL carries the password.
    return { part: 'email', what: `SMTP at ${new URL(env.SMTP_URL!).host}`, embedded: false };
  }
  if (mode === 'outbox') {
    return {
      part: 'email',
      what: `local outbox: each mail an .eml file under ${outboxDirOf(dataDir)} (dev only)`,
      embedded: true,
    };
  }
  return {
    part: 'email',
    what: 'off: no SMTP_URL (restoring a subscription by email is off)',
    embedded: false,
  };
}

/** The setup as lines, e.g. `database: PGlite (embedded) at /srv/.data/pglite`. */
export const setupLines = (parts: SetupPart[]) => parts.map((p) => `${p.part}: ${p.what}`);
