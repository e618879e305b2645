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
