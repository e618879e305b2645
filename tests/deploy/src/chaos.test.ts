import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDb, type DbHandle, migrateToLatest } from '@fanpilot/db';
import {
  articlePage,
  createTestDatabase,
  type FakeOpenAI,
  type LoopbackServer,
  startFakeOpenAI,
  startSite,
} from '@fanpilot/testkit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type LocalOidc,
  type LocalS3,
  startLocalOidc,
  startLocalS3,
} from '../../../apps/api/src/embedded.ts';
import { hasRedisServer, ownRedis, pgProxy } from '../../../apps/api/test/support/faults.ts';
import {
  assertBuilt,
  freePort,
  type Jar,
  killAll,
  onboardThrough,
  type Proc,
  sendWithCookies,
  sleep,
  startApi,
  startWorker,
  waitFor,
} from './stack.ts';

/**
 * Chaos: the built api and worker as separate processes on PostgreSQL (through a proxy the test can
 * make refuse connections), a Redis of the test's own (killed and restarted), a local S3 and a
 * loopback model that can fail. Fans keep asking through every outage; afterwards every question
 * has exactly one AI answer and one charge. Each phase prints its figures: the longest request
 * during the outage, questions asked / answered / duplicated, and the time to recover.
 */

const BASE_DB = process.env.TEST_DATABASE_URL;
const redisServer = await hasRedisServer();

describe.runIf(BASE_DB && redisServer)('chaos: outages of Redis, the model and PostgreSQL', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fanpilot-chaos-'));
  let database: { url: string; drop: () => Promise<void> };
  let db: DbHandle;
  let pg: Awaited<ReturnType<typeof pgProxy>>;
  let redis: Awaited<ReturnType<typeof ownRedis>>;
  let oidc: LocalOidc;
  let s3: LocalS3;
  let site: LoopbackServer;
  let model: FakeOpenAI;
  let api: Proc;
  let origin = '';
  const creator: Jar = {};
  let username = '';
  let chatbotId = '';
  /** Every question a fan asked (its text), by phase. */
  const asked: Record<string, string[]> = { redis: [], model: [], postgres: [] };

  const request = async (method: string, p: string, body?: unknown, jar: Jar = creator) => {
    const started = Date.now();
    const res = await sendWithCookies(`${origin}${p}`, method, jar, body, AbortSignal.timeout(30_000));
    return { res, ms: Date.now() - started };
  };

  /** A fan's browser: its own cookie jar and fan id. */
  const fan = () => ({ jar: {} as Jar, id: `mobile_fan_chaos_${randomBytes(16).toString('hex')}` });
  const ask = async (f: ReturnType<typeof fan>, phase: string, text: string) => {
    const r = await request('POST', '/api/ask', { creator: username, message: text, fanId: f.id }, f.jar);
    if (r.res.status === 200) asked[phase]!.push(text);
    return r;
  };

  /** Per question of a phase: how many AI replies and charges it has. */
  const tally = async (phase: string) => {
    const texts = asked[phase]!;
    if (texts.length === 0) return { asked: 0, answered: 0, duplicated: 0, charged: 0 };
    const rows = await sql<{ body: string; replies: number; charges: number }>`
      select q.body,
        (select count(*)::int from messages a where a.reply_to = q.id and a.sender = 'Creatorai') as replies,
        (select count(*)::int from credit_ledger l where l.message_id = q.id and l.reason = 'ai_answer') as charges
      from messages q where q.sender = 'fan' and q.body in (${sql.join(texts)})`.execute(db.db);
    return {
      asked: texts.length,
      stored: rows.rows.length,
      answered: rows.rows.filter((r) => r.replies >= 1).length,
      duplicated: rows.rows.filter((r) => r.replies > 1 || r.charges > 1).length,
      charged: rows.rows.filter((r) => r.charges === 1).length,
    };
  };
  const allAnswered = async (phase: string) => {
    const t = await tally(phase);
    return t.stored === t.asked && t.answered === t.asked && t.charged === t.asked ? t : undefined;
  };

  beforeAll(async () => {
    assertBuilt();
    database = await createTestDatabase(BASE_DB!);
    db = createDb({ databaseUrl: database.url, poolSize: 3 });
    await migrateToLatest(db.db);
    pg = await pgProxy(new URL(database.url));
    redis = await ownRedis();
    oidc = await startLocalOidc({ sub: 'chaos-creator', name: 'Cora Chaos', email: 'cora@example.com' });
    s3 = await startLocalS3({ directory: path.join(dataDir, 's3'), bucket: 'fanpilot-chaos' });
    site = await startSite({
      '/guide': { body: articlePage('Recovery guide', ['The sauna is kept at 85 degrees Celsius.']) },
    });
    model = await startFakeOpenAI();
    model.answerWith(() => 'An answer from the AI.');
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    const shared = {
      NODE_ENV: 'production',
      DATABASE_URL: pg.urlFor(database.url),
      REDIS_URL: redis.url,
      JOBS_PREFIX: `fp-chaos-${randomBytes(4).toString('hex')}`,
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: s3.bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      INGEST_ALLOWED_PRIVATE_HOSTS: '127.0.0.1,localhost',
      OPENAI_API_KEY: 'sk-chaos',
      OPENAI_BASE_URL: model.baseUrl,
      // Answers are retried for a time, with short waits here so the test sees recovery quickly.
      ANSWER_RETRY_BACKOFF_MS: '500',
      ANSWER_RETRY_MAX_BACKOFF_MS: '2000',
      ANSWER_RETRY_FOR_MS: '600000',
      LOG_LEVEL: 'info',
    };
    api = await startApi('chaos-api', port, {
      ...shared,
      PUBLIC_ORIGIN: origin,
      SESSION_SECRET: `chaos-session-${randomBytes(16).toString('hex')}`,
      DATA_DIR: path.join(dataDir, 'api'),
      GOOGLE_CLIENT_ID: 'fanpilot-chaos',
      GOOGLE_CLIENT_SECRET: `chaos-${randomBytes(8).toString('hex')}`,
      OAUTH_ISSUER: oidc.issuer,
      ASK_RATE_LIMIT_PER_IP: '100000',
      ASK_RATE_LIMIT_PER_FAN: '100000',
      FAN_READ_RATE_LIMIT_PER_IP: '100000',
      NEW_FANS_PER_IP: '100000',
    });
    await startWorker('chaos-worker', {
      ...shared,
      WORKER_CONCURRENCY: '2',
      WORKER_HEALTH_PORT: '0',
      WORKER_HEALTH_HOST: '127.0.0.1',
      INGEST_SWEEP_INTERVAL_MS: '1000',
    });

    // The creator signs in through the local OpenID provider and onboards.
    const start = await request('GET', '/auth/google');
    const authorize = await fetch(start.res.headers.get('location')!, { redirect: 'manual' });
    const back = new URL(authorize.headers.get('location')!);
    await request('GET', `${back.pathname}${back.search}`);
    const signup = await onboardThrough(async (m, p, b) => (await request(m, p, b)).res, 'Chaos bot');
    expect(signup.status).toBe(200);
    chatbotId = ((await signup.json()) as { chatbot: { id: string } }).chatbot.id;
    username = ((await (await request('GET', '/api/auth/user')).res.json()) as { username: string }).username;
  }, 120_000);

  afterAll(async () => {
    await killAll();
    await redis?.kill();
    await pg?.restore().catch(() => {});
    await pg?.close();
    await site?.close();
    await model?.close();
    await oidc?.stop();
    await s3?.stop();
    await db?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('Redis killed for 30 s while fans ask and the creator adds knowledge: every call answers within 3 s, every question answered once after', async () => {
    const fans = Array.from({ length: 4 }, fan);
    await redis.kill();
    const outageStart = Date.now();
    const durations: number[] = [];
    let n = 0;
    let knowledgeId = '';
    while (Date.now() - outageStart < 30_000) {
      for (const f of fans) {
        const r = await ask(f, 'redis', `Redis outage question ${n++}`);
        durations.push(r.ms);
        expect(r.res.status).toBe(200);
      }
      if (!knowledgeId) {
        const added = await request('POST', '/api/add-knowledge', {
          chatbotId,
          url: `http://localhost:${site.port}/guide`,
        });
        durations.push(added.ms);
        expect(added.res.status).toBe(200);
        knowledgeId = ((await added.res.json()) as { id: string }).id;
        for (let i = 0; i < 2; i++) {
          const toggled = await request('POST', '/api/toggle-status', { creator: username });
          durations.push(toggled.ms);
          expect(toggled.res.status).toBe(200);
        }
      }
      await sleep(2_000);
    }
    await redis.start();
    const back = Date.now();
    const done = await waitFor(
      'every Redis-outage question answered',
      () => allAnswered('redis'),
      120_000,
      500,
    );
    const recovered = Date.now() - back;
    await waitFor(
      'the knowledge item added during the outage ready',
      async () => {
        const row = await db.db
          .selectFrom('knowledge_items')
          .select('status')
          .where('id', '=', knowledgeId)
          .executeTakeFirst();
        return row?.status === 'completed' || row?.status === 'active';
      },
      120_000,
      500,
    );
    const knowledgeReady = Date.now() - back;
    console.log(
      `chaos/redis (30 s down): longest request ${Math.max(...durations)} ms over ${durations.length} calls; questions asked ${done.asked}, answered ${done.answered}, duplicated ${done.duplicated}; recovered ${(recovered / 1000).toFixed(1)} s after Redis returned (knowledge ready after ${(knowledgeReady / 1000).toFixed(1)} s)`,
    );
    expect(Math.max(...durations)).toBeLessThan(3_000);
    expect(done.duplicated).toBe(0);
  }, 300_000);

  it('the model failing for 60 s: every question answered once after it recovers', async () => {
    const fans = Array.from({ length: 3 }, fan);
    model.failNext(Number.MAX_SAFE_INTEGER, 503);
    const outageStart = Date.now();
    const durations: number[] = [];
    let n = 0;
    while (Date.now() - outageStart < 60_000) {
      for (const f of fans) {
        const r = await ask(f, 'model', `Model outage question ${n++}`);
        durations.push(r.ms);
        expect(r.res.status).toBe(200);
      }
      await sleep(10_000);
    }
    const during = await tally('model');
    expect(during.answered).toBe(0);
    model.failNext(0);
    const back = Date.now();
    const done = await waitFor(
      'every model-outage question answered',
      () => allAnswered('model'),
      120_000,
      500,
    );
    console.log(
      `chaos/model (60 s failing): longest request ${Math.max(...durations)} ms; questions asked ${done.asked}, answered ${done.answered}, duplicated ${done.duplicated}; recovered ${((Date.now() - back) / 1000).toFixed(1)} s after the model returned`,
    );
    expect(done.duplicated).toBe(0);
  }, 300_000);

  it('PostgreSQL refusing connections: 503 with Retry-After, nothing lost', async () => {
    const f = fan();
    const before = await ask(f, 'postgres', 'Asked just before PostgreSQL went away');
    expect(before.res.status).toBe(200);
    await pg.refuse();
    const outageStart = Date.now();
    const durations: number[] = [];
    while (Date.now() - outageStart < 15_000) {
      for (const [method, p, body] of [
        ['GET', `/api/creators/username/${username}/messages`],
        ['POST', '/api/toggle-status', { creator: username }],
      ] as const) {
        const r = await request(method, p, body);
        durations.push(r.ms);
        expect(r.res.status).toBe(503);
        expect(Number(r.res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(((await r.res.json()) as { error?: string }).error).toBe('service_unavailable');
      }
      const r = await request(
        'POST',
        '/api/ask',
        { creator: username, message: 'Asked while PostgreSQL is down', fanId: f.id },
        f.jar,
      );
      durations.push(r.ms);
      expect(r.res.status).toBe(503);
      await sleep(1_000);
    }
    await pg.restore();
    const back = Date.now();
    // The fan app sends again after a 503; now it is stored.
    await waitFor(
      'an ask accepted again',
      async () => (await ask(f, 'postgres', 'Asked while PostgreSQL is down')).res.status === 200,
      30_000,
      500,
    );
    const done = await waitFor(
      'every question of the phase answered',
      () => allAnswered('postgres'),
      120_000,
      500,
    );
    console.log(
      `chaos/postgres (15 s refusing): longest request ${Math.max(...durations)} ms over ${durations.length} calls (all 503 + Retry-After); questions asked ${done.asked}, answered ${done.answered}, duplicated ${done.duplicated}; recovered ${((Date.now() - back) / 1000).toFixed(1)} s after PostgreSQL returned`,
    );
    expect(Math.max(...durations)).toBeLessThan(7_000);
    expect(done.duplicated).toBe(0);
    expect(api.output()).not.toMatch(/"level":50.*job failed/);
  }, 300_000);
});
