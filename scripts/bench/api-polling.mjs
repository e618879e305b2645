#!/usr/bin/env node
// Replays SPEC's polling mix against the built api on real PostgreSQL, beside a bare Fastify
// hello-world measured in the same run. Prints requests/second, p50 and p99 latency.
//   per open dashboard: status 2 s, messages 5 s, fans 10 s, knowledge progress 5 s, usage 60 s
//   per fan chat:       history 8 s
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const requireFromApi = createRequire(path.join(root, 'apps/api/package.json'));
const Fastify = requireFromApi('fastify');
const pg = requireFromApi('pg');

const DASHBOARDS = Number(process.env.BENCH_DASHBOARDS ?? 20);
const FANS_PER_CREATOR = Number(process.env.BENCH_FANS ?? 10);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const BASE_DB =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

function cookiesOf(res) {
  const out = {};
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const i = pair.indexOf('=');
    out[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return out;
}
const jarHeader = (jar) =>
  Object.entries(jar)
    .filter(([, v]) => v)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');

async function run(url, requests) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, requests });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    total: result.requests.total,
  };
}

async function main() {
  const dbName = `fp_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: BASE_DB });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const dbUrl = new URL(BASE_DB);
  dbUrl.pathname = `/${dbName}`;

  const dataDir = mkdtempSync(path.join(tmpdir(), 'fanpilot-bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const api = spawn(process.execPath, [path.join(root, 'apps/api/dist/server.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_ORIGIN: base,
      DATA_DIR: dataDir,
      DATABASE_URL: dbUrl.toString(),
      LOG_LEVEL: 'warn',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const cleanup = async () => {
    api.kill('SIGTERM');
    await new Promise((r) => api.once('exit', r));
    const c = new pg.Client({ connectionString: BASE_DB });
    await c.connect();
    await c.query(`drop database if exists ${dbName} with (force)`);
    await c.end();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 100; i++) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {}
      await new Promise((r) => setTimeout(r, 200));
    }

    // Seed: one signed-in, onboarded creator per dashboard, each with fans who asked a question.
    const requests = [];
    for (let d = 0; d < DASHBOARDS; d++) {
      // The embedded provider signs in "Local Creator"; one creator serves every dashboard.
      const start = await fetch(`${base}/auth/google`, { redirect: 'manual' });
      const jar = cookiesOf(start);
      const authorize = await fetch(start.headers.get('location'), { redirect: 'manual' });
      const callback = await fetch(authorize.headers.get('location'), {
        redirect: 'manual',
        headers: { cookie: jarHeader(jar) },
      });
      const cookie = `fp_session=${cookiesOf(callback).fp_session}`;
      const me = await (await fetch(`${base}/api/auth/user`, { headers: { cookie } })).json();
      if (!me.onboardingComplete) {
        const { uploadURL } = await (
          await fetch(`${base}/api/objects/upload`, { method: 'POST', headers: { cookie } })
        ).json();
        await fetch(uploadURL, { method: 'PUT', body: PNG });
        await fetch(`${base}/api/creator-signup`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ chatbotName: 'Bench Bot', profileImageUrl: uploadURL.split('?')[0] }),
        });
      }
      const user = await (await fetch(`${base}/api/auth/user`, { headers: { cookie } })).json();
      const u = user.username;
      const bot = await fetch(`${base}/api/creators/username/${u}/chatbot`, { headers: { cookie } });
      const chatbotId = bot.ok ? (await bot.json()).id : undefined;

      const fanIds = [];
      for (let f = 0; f < FANS_PER_CREATOR; f++) {
        const fanId = `mobile_fan_bench_${d}_${f}`;
        const res = await fetch(`${base}/api/ask`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `127.0.${d}.${f + 1}` },
          body: JSON.stringify({ creator: u, message: `Question ${f} from fan`, fanId }),
        });
        fanIds.push({ fanId, cookie: jarHeader(cookiesOf(res)) });
      }

      // One minute of one dashboard: 30 status, 12 messages, 6 fans, 12 progress, 1 usage.
      const minute = [];
      const add = (n, p) => {
        for (let i = 0; i < n; i++) minute.push({ method: 'GET', path: p, headers: { cookie } });
      };
      add(30, `/api/creators/username/${u}/status`);
      add(12, `/api/creators/username/${u}/messages`);
      add(6, `/api/creators/username/${u}/fans`);
      if (chatbotId) add(12, `/api/chatbots/${chatbotId}/knowledge/progress`);
      add(1, `/api/creators/username/${u}/usage`);
      // …and its fans' chats: 7.5 history reads a minute each.
      for (const fan of fanIds) {
        for (let i = 0; i < 8; i++) {
          minute.push({
            method: 'GET',
            path: `/api/chatlog/fan/${fan.fanId}?creator=${u}`,
            headers: { cookie: fan.cookie },
          });
        }
      }
      requests.push(...minute);
    }
    // Interleave so every connection sees the mix, not one endpoint at a time.
    for (let i = requests.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [requests[i], requests[j]] = [requests[j], requests[i]];
    }

    const mix = await run(base, requests);

    const hello = Fastify({ logger: false });
    hello.get('/', async () => ({ hello: 'world' }));
    const helloPort = await freePort();
    await hello.listen({ port: helloPort, host: '127.0.0.1' });
    const bare = await run(`http://127.0.0.1:${helloPort}`, [{ method: 'GET', path: '/' }]);
    await hello.close();

    console.log(
      `\napi polling mix (${DASHBOARDS} dashboards, ${FANS_PER_CREATOR} fans each, ${CONNECTIONS} connections, ${DURATION}s, PostgreSQL)`,
    );
    console.log(
      `  fanpilot api : ${mix.rps} req/s  p50 ${mix.p50} ms  p99 ${mix.p99} ms  (${mix.total} requests, ${mix.errors} errors/non-2xx)`,
    );
    console.log(`  bare fastify : ${bare.rps} req/s  p50 ${bare.p50} ms  p99 ${bare.p99} ms`);
    const perDashboard = 61 / 60 + FANS_PER_CREATOR * (1 / 8);
    console.log(
      `  one dashboard with its fans polls ~${perDashboard.toFixed(1)} req/s: this api carries ~${Math.floor(mix.rps / perDashboard)} of them`,
    );
  } finally {
    await cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
