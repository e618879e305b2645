// What the api benchmarks share: the built api in a child process on a database of its own, the
// autocannon run and the bare Fastify beside which the api's numbers are read.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The api's own dependencies (fastify, the stand-ins, …), as the api resolves them. */
export const requireFromApi = createRequire(path.join(root, 'apps/api/package.json'));
const Fastify = requireFromApi('fastify');
/** pg, as packages/db (its only user) resolves it. */
export const pg = createRequire(path.join(root, 'packages/db/package.json'))('pg');

export const BASE_DB =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
export const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

export const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/**
 * How many requests of a (shuffled) mix autocannon is given; each connection cycles through them,
 * so the mix keeps its proportions. autocannon builds every request of the list for each connection
 * at once, before it reads an answer: the inbox bench's 90,000 requests over 20 connections held the
 * bench's process for seconds, and the connections made first counted their 10 s timeout out before
 * their first answer was read (8–9 "timeouts" a run, none of them the api's).
 */
const MIX_SAMPLE = 5_000;

/**
 * autocannon for DURATION seconds over CONNECTIONS connections. `errors` counts client-side failures
 * and the answers `isFailure` (by default any non-2xx) names.
 */
export async function autocannonRun(url, requests, isFailure = (result) => result.non2xx) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: requests.slice(0, MIX_SAMPLE),
  });
  if (result.errors > 0) {
    console.log(
      `    (client-side: ${result.errors} errors, ${result.timeouts} timeouts, ${result.resets ?? 0} resets)`,
    );
  }
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + isFailure(result),
    codes: { '2xx': result['2xx'], '3xx': result['3xx'], '4xx': result['4xx'], '5xx': result['5xx'] },
    total: result.requests.total,
  };
}

/** A bare Fastify hello-world under the same load, for scale. */
export async function measureBareFastify() {
  const hello = Fastify({ logger: false });
  hello.get('/', async () => ({ hello: 'world' }));
  const port = await freePort();
  await hello.listen({ port, host: '127.0.0.1' });
  try {
    return await autocannonRun(`http://127.0.0.1:${port}`, [{ method: 'GET', path: '/' }]);
  } finally {
    await hello.close();
  }
}

/**
 * The built api (apps/api/dist/server.js) on a fresh PostgreSQL database beside BASE_DB and a fresh
 * data directory, with fan rate limits lifted (every simulated fan comes from this one address).
 * Resolves once /readyz answers; stop() ends the process and drops the database.
 */
/** The api's V8 flags as infra/docker/api.Dockerfile and scripts/start.mjs give them. */
// BENCH_API_FLAGS replaces them (e.g. BENCH_API_FLAGS= for V8's defaults, to compare).
export const API_NODE_FLAGS = (
  process.env.BENCH_API_FLAGS ?? '--max-semi-space-size=8 --heap-growing-percent=20'
)
  .split(' ')
  .filter(Boolean);

export async function startBenchApi(name, env = {}) {
  const dbName = `fp_bench_${name}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: BASE_DB });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const dbUrl = new URL(BASE_DB);
  dbUrl.pathname = `/${dbName}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), `fanpilot-bench-${name}-`));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // BENCH_CPU_PROF=<dir>: the api runs under V8's sampling profiler and writes a .cpuprofile there
  // when it stops (read it with scripts/bench/top-frames.mjs, or in Chrome DevTools).
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`]
    : [];
  const startedAt = performance.now();
  // The api as its image starts it (infra/docker/api.Dockerfile: a small young generation).
  const child = spawn(
    process.execPath,
    [...profile, ...API_NODE_FLAGS, path.join(root, 'apps/api/dist/server.js')],
    {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_ORIGIN: base,
        DATA_DIR: dataDir,
        DATABASE_URL: dbUrl.toString(),
        LOG_LEVEL: 'warn',
        ASK_RATE_LIMIT_PER_IP: '1000000',
        FAN_READ_RATE_LIMIT_PER_IP: '1000000000',
        // The benches open thousands of event streams from this one address.
        LIVE_STREAMS_PER_IP: '1000000',
        LIVE_STREAMS_PER_PROCESS: '1000000',
        NEW_FANS_PER_IP: '1000000',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    const c = new pg.Client({ connectionString: BASE_DB });
    await c.connect();
    await c.query(`drop database if exists ${dbName} with (force)`);
    await c.end();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/readyz`)).ok) break;
      } catch {}
      if (child.exitCode !== null || i >= 600) throw new Error('the api did not become ready');
      await new Promise((r) => setTimeout(r, 200));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  /** Seconds since the api started (≈ its profile's clock): brackets a phase for top-frames.mjs. */
  const sinceStart = () => (performance.now() - startedAt) / 1000;
  return { child, port, base, databaseUrl: dbUrl.toString(), stop, sinceStart };
}

/** Shuffles in place, so every connection sees the whole mix rather than one endpoint at a time. */
export function shuffle(items) {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/** A 1×1 PNG: the profile image a bench creator signs up with. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** The cookies a response sets, as name → value. */
export function cookiesOf(res) {
  const out = {};
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const i = pair.indexOf('=');
    out[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return out;
}

/** A Cookie header from a jar (cleared cookies left out). */
export const jarHeader = (jar) =>
  Object.entries(jar)
    .filter(([, v]) => v)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');

/** The response, if its status is the one expected; else an error naming the step. */
export const must = async (what, res, status = 200) => {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return res;
};

/**
 * Signs in through the api's sign-in (the local OpenID stand-in answers as whoever it is set to)
 * and completes onboarding with a profile image: the creator's session cookie and chatbot id.
 */
export async function signUpCreator(base, chatbotName) {
  const start = await must('sign-in', await fetch(`${base}/auth/google`, { redirect: 'manual' }), 302);
  const authorize = await fetch(start.headers.get('location'), { redirect: 'manual' });
  const callback = await must(
    'sign-in callback',
    await fetch(authorize.headers.get('location'), {
      redirect: 'manual',
      headers: { cookie: jarHeader(cookiesOf(start)) },
    }),
    302,
  );
  const cookie = `fp_session=${cookiesOf(callback).fp_session}`;
  const upload = await must(
    'upload URL',
    await fetch(`${base}/api/objects/upload`, { method: 'POST', headers: { cookie } }),
  );
  const { uploadURL } = await upload.json();
  await fetch(uploadURL, { method: 'PUT', body: PNG });
  const signup = await must(
    'sign-up',
    await fetch(`${base}/api/creator-signup`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ chatbotName, profileImageUrl: uploadURL.split('?')[0] }),
    }),
  );
  return { cookie, chatbotId: (await signup.json()).chatbot.id };
}

/**
 * What a deployed api talks to instead of holding it in its own process (infra/k8s: S3 and Stripe
 * are services outside): an object store (s3rver, as MinIO would be) and the loopback Stripe, both
 * in the bench's process. Without them the api starts its embedded stand-ins in-process (s3rver,
 * the local Stripe), which a deployment never runs. Returns the api's environment and stop().
 */
export async function startOutsideServices() {
  const S3rver = requireFromApi('s3rver');
  const directory = mkdtempSync(path.join(tmpdir(), 'fanpilot-bench-s3-'));
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: 'fanpilot' }],
  });
  const { port } = await s3.run();
  const { startStripeService } = await import(path.join(root, 'packages/local-stripe/dist/index.js'));
  const stripe = await startStripeService();
  return {
    env: {
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_BUCKET: 'fanpilot',
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.url,
    },
    stop: async () => {
      await stripe.close();
      await s3.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
