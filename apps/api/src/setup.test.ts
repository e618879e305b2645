import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { loadEnv } from './env.ts';
import { createPayments } from './services/billing.ts';
import { describeSetup, setupLines } from './setup.ts';

const s3 = {
  endpoint: 'http://127.0.0.1:4569',
  publicEndpoint: 'http://127.0.0.1:4569',
  region: 'us-east-1',
  bucket: 'fanpilot',
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
  forcePathStyle: true,
};

describe('the start-up setup lines', () => {
  it('name every embedded part of a bare `pnpm dev`: stand-in sign-in and the test checkout included', () => {
    const env = loadEnv({ DATA_DIR: '/srv/fp' });
    const parts = describeSetup({
      env,
      config: {
        oauth: { issuer: 'http://127.0.0.1:5555', clientId: 'x', clientSecret: 'x', local: true },
        s3,
      },
      database: 'pglite',
      jobs: 'in-process',
      payments: createPayments(env),
    });
    expect(setupLines(parts)).toEqual([
      'database: PGlite (embedded) at /srv/fp/pglite',
      'objects: embedded S3 store (s3rver) on loopback at http://127.0.0.1:4569, files under /srv/fp/s3',
      'jobs: in-process (no REDIS_URL)',
      'sign-in: local OpenID stand-in, signs everyone in as Local Creator (dev only)',
      'payments: local test checkout, grants credits without payment',
      'email: local outbox: each mail an .eml file under /srv/fp/outbox (dev only)',
      'push keys: VAPID keys generated and kept under /srv/fp',
      'session secret: generated and kept under /srv/fp',
      "answerer: quotes only: the embedded honest answerer quotes the creator's sources (no model key: OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENAI_API_KEY, DEEPSEEK_API_KEY)",
      'embeddings: local sentence encoder (local:use-lite-512, in this process)',
    ]);
    expect(parts.every((p) => p.embedded)).toBe(true);
  });

  it('names none when everything is configured', () => {
    const env = loadEnv({
      NODE_ENV: 'production',
      SESSION_SECRET: 'a-production-secret-0123456789',
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
      DATABASE_URL: 'postgres://db/fanpilot',
      REDIS_URL: 'redis://redis:6379',
      S3_ENDPOINT: 'http://minio:9000',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret-key',
      STRIPE_SECRET_KEY: 'sk_test_x',
      SMTP_URL: 'smtp://mailer:hunter2@smtp.example.com:587',
      VAPID_PUBLIC_KEY: 'pub',
      VAPID_PRIVATE_KEY: 'priv',
      OPENAI_API_KEY: 'sk-secret-value',
    });
    const parts = describeSetup({
      env,
      config: {
        oauth: { issuer: 'https://accounts.google.com', clientId: 'id', clientSecret: 'x', local: false },
        s3,
      },
      database: 'postgres',
      jobs: 'redis',
      payments: createPayments(env),
    });
    expect(parts.filter((p) => p.embedded)).toEqual([]);
    expect(setupLines(parts)).toContain('payments: Stripe');
    // The SMTP password never reaches the log.
    expect(setupLines(parts)).toContain('email: SMTP at smtp.example.com:587');
    expect(setupLines(parts).join('\n')).not.toContain('hunter2');
    expect(setupLines(parts)).toContain('sign-in: OpenID provider https://accounts.google.com');
    expect(setupLines(parts)).toContain(
      'answerer: OpenAI (OPENAI_API_KEY: gpt-4o, gpt-4o-mini, gpt-4, gpt-3.5-turbo); new chatbots use gpt-4o-mini; quotes only for claude-3-haiku-20240307, gemini-pro, deepseek-v3 (no key)',
    );
    expect(setupLines(parts)).toContain(
      'embeddings: text-embedding-3-small from the OpenAI API (OPENAI_API_KEY)',
    );
    // Key names, never their values.
    expect(setupLines(parts).join('\n')).not.toContain('sk-secret-value');
  });
});

describe('answerer and embeddings', () => {
  const linesOf = (vars: Record<string, string>) => {
    const env = loadEnv(vars);
    return setupLines(
      describeSetup({
        env,
        config: {
          oauth: { issuer: 'http://127.0.0.1:5555', clientId: 'x', clientSecret: 'x', local: true },
          s3,
        },
        database: 'pglite',
        jobs: 'in-process',
        payments: createPayments(env),
      }),
    ).filter((l) => l.startsWith('answerer:') || l.startsWith('embeddings:'));
  };

  it('names every provider with a key, an OpenAI-compatible address, and an embedding model of choice', () => {
    expect(
      linesOf({
        OPENAI_API_KEY: 'k1',
        OPENAI_BASE_URL: 'http://127.0.0.1:9999/v1',
        ANTHROPIC_API_KEY: 'k2',
        GOOGLE_GENAI_API_KEY: 'k3',
        DEEPSEEK_API_KEY: 'k4',
        EMBEDDING_MODEL: 'text-embedding-3-large',
      }),
    ).toEqual([
      'answerer: OpenAI at http://127.0.0.1:9999/v1 (OPENAI_API_KEY: gpt-4o, gpt-4o-mini, gpt-4, gpt-3.5-turbo), Anthropic (ANTHROPIC_API_KEY: claude-3-haiku-20240307), Google (GOOGLE_GENAI_API_KEY: gemini-pro), DeepSeek (DEEPSEEK_API_KEY: deepseek-v3); new chatbots use gpt-4o-mini',
      'embeddings: text-embedding-3-large from the OpenAI API at http://127.0.0.1:9999/v1 (OPENAI_API_KEY)',
    ]);
  });

  it('says when only another provider answers, and when embeddings are off or local by choice', () => {
    expect(linesOf({ ANTHROPIC_API_KEY: 'k2', EMBEDDINGS: 'off' })).toEqual([
      'answerer: Anthropic (ANTHROPIC_API_KEY: claude-3-haiku-20240307); new chatbots use gpt-4o-mini; quotes only for gpt-4o, gpt-4o-mini, gpt-4, gpt-3.5-turbo, gemini-pro, deepseek-v3 (no key)',
      'embeddings: off: full-text search only (EMBEDDINGS=off)',
    ]);
    expect(linesOf({ OPENAI_API_KEY: 'k1', EMBEDDINGS: 'local' })[1]).toBe(
      'embeddings: local sentence encoder (local:use-lite-512, in this process)',
    );
    expect(linesOf({ EMBEDDINGS: 'api' })[1]).toBe(
      'embeddings: off: full-text search only (EMBEDDINGS=api without OPENAI_API_KEY)',
    );
  });
});

describe('email', () => {
  it('without SMTP_URL in production, mail is off and the start-up says so', () => {
    const env = loadEnv({
      NODE_ENV: 'production',
      SESSION_SECRET: 'a-production-secret-0123456789',
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
    });
    const parts = describeSetup({
      env,
      config: {
        oauth: { issuer: 'https://accounts.google.com', clientId: 'id', clientSecret: 'x', local: false },
        s3,
      },
      database: 'postgres',
      jobs: 'redis',
      payments: createPayments(env),
    });
    expect(setupLines(parts).find((l) => l.startsWith('email:'))).toMatch(/^email: off: no SMTP_URL/);
  });

  it('refuses an SMTP_URL that is not smtp:// or smtps://', () => {
    expect(() => loadEnv({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL/);
  });
});

describe('payments', () => {
  it('without Stripe: the test checkout outside production, nothing in production', () => {
    expect(createPayments(loadEnv({}))).toEqual({
      stripe: null,
      webhookSecret: null,
      testCheckout: true,
      feePercent: 10,
    });
    expect(
      createPayments(
        loadEnv({
          NODE_ENV: 'production',
          SESSION_SECRET: 'a-production-secret-0123456789',
          GOOGLE_CLIENT_ID: 'id',
          GOOGLE_CLIENT_SECRET: 'secret',
        }),
      ),
    ).toEqual({ stripe: null, webhookSecret: null, testCheckout: false, feePercent: 10 });
  });

  it('with Stripe: never the test checkout; STRIPE_API_BASE moves the client', () => {
    const payments = createPayments(
      loadEnv({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_API_BASE: 'http://127.0.0.1:12111' }),
    );
    expect(payments.stripe).toBeInstanceOf(Stripe);
    expect(payments.testCheckout).toBe(false);
  });
});
