import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from './env.ts';

describe('environment', () => {
  it('has embedded defaults for everything', () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATA_DIR).toBe('.data');
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.REDIS_URL).toBeUndefined();
    expect(env.OAUTH_ISSUER).toBe('https://accounts.google.com');
    expect(env.INGEST_ALLOWED_PRIVATE_HOSTS).toEqual([]);
    expect(env.ASK_RATE_LIMIT_PER_FAN).toBe(30);
    expect(env.ASK_RATE_LIMIT_PER_IP).toBe(600);
    expect(env.ASK_RATE_LIMIT_WINDOW_SECONDS).toBe(60);
    expect(env.FAN_READ_RATE_LIMIT_PER_IP).toBe(120);
    expect(env.NEW_FANS_PER_IP).toBe(60);
    expect(env.NEW_FANS_WINDOW_SECONDS).toBe(600);
    expect(env.JOBS_PREFIX).toBe('fanpilot');
    // `pnpm start` listens on loopback only unless HOST says otherwise (containers set 0.0.0.0).
    expect(env.HOST).toBe('127.0.0.1');
    expect(loadEnv({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(loadEnv({ HOST: '' }).HOST).toBe('127.0.0.1');
  });

  describe('NODE_ENV=production', () => {
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'a-production-secret-0123456789',
      GOOGLE_CLIENT_ID: 'client.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'client-secret',
    };

    it('starts with a session secret and a Google client; Stripe and the embedded parts are optional', () => {
      const env = loadEnv(production);
      expect(env.NODE_ENV).toBe('production');
      expect(env.STRIPE_SECRET_KEY).toBeUndefined();
      expect(env.DATABASE_URL).toBeUndefined();
    });

    it('refuses to start without GOOGLE_CLIENT_ID: the local sign-in stand-in never runs in production', () => {
      const { GOOGLE_CLIENT_ID: _, GOOGLE_CLIENT_SECRET: __, ...noGoogle } = production;
      expect(() => loadEnv(noGoogle)).toThrow(EnvError);
      expect(() => loadEnv(noGoogle)).toThrow(
        'GOOGLE_CLIENT_ID: required when NODE_ENV=production (the local sign-in stand-in never runs in production)',
      );
      expect(() => loadEnv({ ...noGoogle, GOOGLE_CLIENT_ID: '' })).toThrow(/GOOGLE_CLIENT_ID: required/);
      // Outside production the stand-in is the default.
      expect(loadEnv({ NODE_ENV: 'development' }).GOOGLE_CLIENT_ID).toBeUndefined();
    });

    it('names every broken rule at once', () => {
      let message = '';
      try {
        loadEnv({ NODE_ENV: 'production' });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toContain('SESSION_SECRET: required when NODE_ENV=production');
      expect(message).toContain('GOOGLE_CLIENT_ID: required when NODE_ENV=production');
    });
  });

  it('refuses the old name of PUSH_ALLOWED_HOSTS instead of ignoring it', () => {
    expect(() => loadEnv({ PUSH_ALLOWED_PRIVATE_HOSTS: '127.0.0.1:9999' })).toThrow(
      'PUSH_ALLOWED_PRIVATE_HOSTS: renamed to PUSH_ALLOWED_HOSTS',
    );
    expect(loadEnv({ PUSH_ALLOWED_HOSTS: '127.0.0.1:9999' }).PUSH_ALLOWED_HOSTS).toEqual(['127.0.0.1:9999']);
  });

  it('takes STRIPE_API_BASE as an http(s) URL', () => {
    expect(loadEnv({ STRIPE_API_BASE: 'http://127.0.0.1:12111' }).STRIPE_API_BASE).toBe(
      'http://127.0.0.1:12111',
    );
    expect(() => loadEnv({ STRIPE_API_BASE: 'ftp://stripe.example' })).toThrow(/STRIPE_API_BASE/);
    expect(() => loadEnv({ STRIPE_API_BASE: 'not a url' })).toThrow(/STRIPE_API_BASE/);
  });

  it('parses lists and origins', () => {
    const env = loadEnv({
      INGEST_ALLOWED_PRIVATE_HOSTS: '127.0.0.1, localhost',
      PUBLIC_ORIGIN: 'https://fan.example/x',
    });
    expect(env.INGEST_ALLOWED_PRIVATE_HOSTS).toEqual(['127.0.0.1', 'localhost']);
    expect(env.PUBLIC_ORIGIN).toBe('https://fan.example');
  });

  it.each([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['REDIS_URL', { REDIS_URL: 'http://x' }],
    ['PUBLIC_ORIGIN', { PUBLIC_ORIGIN: 'not a url' }],
    ['SESSION_SECRET', { SESSION_SECRET: 'short' }],
    ['GOOGLE_CLIENT_SECRET', { GOOGLE_CLIENT_ID: 'id' }],
    ['S3_ACCESS_KEY_ID', { S3_ENDPOINT: 'http://127.0.0.1:9000' }],
    ['S3_FORCE_PATH_STYLE', { S3_FORCE_PATH_STYLE: 'maybe' }],
    ['ASK_RATE_LIMIT_PER_FAN', { ASK_RATE_LIMIT_PER_FAN: '0' }],
    ['ASK_RATE_LIMIT_PER_IP', { ASK_RATE_LIMIT_PER_IP: 'many' }],
    ['FAN_READ_RATE_LIMIT_PER_IP', { FAN_READ_RATE_LIMIT_PER_IP: '0' }],
    ['NEW_FANS_PER_IP', { NEW_FANS_PER_IP: '-1' }],
    ['NEW_FANS_WINDOW_SECONDS', { NEW_FANS_WINDOW_SECONDS: '100000' }],
  ])('names %s when its value is bad', (name, source) => {
    expect(() => loadEnv(source)).toThrow(EnvError);
    expect(() => loadEnv(source)).toThrow(name);
  });
});
