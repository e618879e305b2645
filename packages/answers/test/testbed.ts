import type { DbHandle } from '@fanpilot/db';
import { type FakeOpenAI, openTestDb, startFakeOpenAI } from '@fanpilot/testkit';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export interface AnswerTestbed {
  readonly handle: DbHandle;
  readonly db: DbHandle['db'];
  readonly openai: FakeOpenAI;
  /** What the answerer needs: the database and the fake OpenAI as its provider. */
  readonly deps: { db: DbHandle['db']; env: { OPENAI_API_KEY: string; OPENAI_BASE_URL: string } };
}

/**
 * For a describe block of answer tests: a database (real PostgreSQL when TEST_DATABASE_URL is set,
 * since concurrency needs real connections; PGlite otherwise) with `poolSize` connections, and the
 * fake OpenAI, whose recorded requests are cleared before each test.
 */
export function answerTestbed(poolSize: number): AnswerTestbed {
  let handle: DbHandle | undefined;
  let close: (() => Promise<void>) | undefined;
  let openai: FakeOpenAI | undefined;
  beforeAll(async () => {
    const opened = await openTestDb(process.env.TEST_DATABASE_URL, poolSize);
    handle = opened.handle;
    close = opened.close;
    openai = await startFakeOpenAI();
  });
  afterAll(async () => {
    await openai?.close();
    await close?.();
  });
  beforeEach(() => {
    if (openai) openai.requests.length = 0;
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the answer testbed is used before its beforeAll ran');
    return value;
  };
  return {
    get handle() {
      return ready(handle);
    },
    get db() {
      return ready(handle).db;
    },
    get openai() {
      return ready(openai);
    },
    get deps() {
      const fake = ready(openai);
      return { db: ready(handle).db, env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.baseUrl } };
    },
  };
}
