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
