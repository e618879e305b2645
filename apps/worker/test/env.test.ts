import { describe, expect, it } from 'vitest';
import { loadWorkerEnv, WorkerEnvError } from '../src/env.ts';

const required = { DATABASE_URL: 'postgres://db/fanpilot', REDIS_URL: 'redis://127.0.0.1:6379' };

describe('worker environment', () => {
  it('needs DATABASE_URL and REDIS_URL, naming each missing one', () => {
    expect(() => loadWorkerEnv({})).toThrow(WorkerEnvError);
    try {
      loadWorkerEnv({});
    } catch (err) {
      expect((err as Error).message).toContain('DATABASE_URL');
      expect((err as Error).message).toContain('REDIS_URL');
    }
  });

  it('has defaults for concurrency, health port and ingest limits', () => {
    const env = loadWorkerEnv(required);
    expect(env).toMatchObject({
      WORKER_CONCURRENCY: 4,
      WORKER_HEALTH_PORT: 3100,
      JOBS_PREFIX: 'fanpilot',
    });
    expect(env.ingest).toMatchObject({
      INGEST_ALLOWED_PRIVATE_HOSTS: [],
      INGEST_SITEMAP_MAX_PAGES: 50,
      INGEST_MAX_PAGE_BYTES: 5 * 1024 * 1024,
      INGEST_YOUTUBE_ORIGIN: 'https://www.youtube.com',
    });
  });

  it('parses the allow-list and refuses bad values by name', () => {
    const env = loadWorkerEnv({ ...required, INGEST_ALLOWED_PRIVATE_HOSTS: ' Intranet.local , wiki ' });
    expect(env.ingest.INGEST_ALLOWED_PRIVATE_HOSTS).toEqual(['intranet.local', 'wiki']);
    expect(() => loadWorkerEnv({ ...required, WORKER_CONCURRENCY: 'lots' })).toThrow(/WORKER_CONCURRENCY/);
    expect(() => loadWorkerEnv({ ...required, INGEST_SITEMAP_MAX_PAGES: '0' })).toThrow(
      /INGEST_SITEMAP_MAX_PAGES/,
    );
    expect(() => loadWorkerEnv({ ...required, REDIS_URL: 'http://x' })).toThrow(/REDIS_URL: must be a redis/);
    expect(() => loadWorkerEnv({ ...required, S3_ENDPOINT: 'http://s3.local' })).toThrow(/S3_ACCESS_KEY_ID/);
  });
});
