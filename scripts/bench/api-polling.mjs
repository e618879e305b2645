#!/usr/bin/env node
// Replays the specified polling mix against the built api on real PostgreSQL, beside a bare Fastify
// hello-world measured in the same run. Prints requests/second, p50 and p99 latency.
//   per open dashboard: status 2 s, messages 5 s, fans 10 s, knowledge progress 5 s, usage 60 s
//   per fan chat:       history 8 s
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import {
  CONNECTIONS,
  cookiesOf,
  DURATION,
  jarHeader,
  measureBareFastify,
  must,
  requireFromApi,
  autocannonRun as run,
  shuffle,
  signUpCreator,
  startBenchApi,
} from './lib.mjs';

const { OAuth2Server, Events } = await import(
  pathToFileURL(requireFromApi.resolve('oauth2-mock-server')).href
);

/** CPU seconds a process has used (user + system). */
const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

const DASHBOARDS = Number(process.env.BENCH_DASHBOARDS ?? 20);
const FANS_PER_CREATOR = Number(process.env.BENCH_FANS ?? 10);

async function main() {
  // A sign-in provider here, so that every dashboard is a creator of its own.
  let identity = { sub: 'bench-creator', name: 'Bench Creator', email: 'bench@example.com' };
  const oidc = new OAuth2Server();
  await oidc.issuer.keys.generate('RS256');
  oidc.service.on(Events.BeforeTokenSigning, (token) => Object.assign(token.payload, identity));
  oidc.service.on(Events.BeforeUserinfo, (response) => {
    response.body = { ...identity, email_verified: true };
  });
  await oidc.start(0, '127.0.0.1');

  const running = await startBenchApi('polling', {
    GOOGLE_CLIENT_ID: 'fanpilot-bench',
    GOOGLE_CLIENT_SECRET: 'fanpilot-bench-secret',
    OAUTH_ISSUER: oidc.issuer.url,
    // Every fan of a dashboard asks from this one address.
    ASK_RATE_LIMIT_PER_FAN: '1000',
  }).catch(async (error) => {
    await oidc.stop();
    throw error;
  });
  const { base } = running;
  const cleanup = async () => {
    await running.stop();
    await oidc.stop();
  };
  try {
    // Seed: one signed-in, onboarded creator per dashboard, each with fans who asked a question.
    const requests = [];
    for (let d = 0; d < DASHBOARDS; d++) {
      identity = { sub: `bench-creator-${d}`, name: `Bench Creator ${d}`, email: `bench${d}@example.com` };
      const { cookie, chatbotId } = await signUpCreator(base, `Bench Bot ${d}`);
      const user = await (
        await must('current user', await fetch(`${base}/api/auth/user`, { headers: { cookie } }))
      ).json();
      const u = user.username;

      const fanIds = [];
      for (let f = 0; f < FANS_PER_CREATOR; f++) {
        const fanId = `mobile_fan_bench_${d}_${f}`;
        const res = await must(
          'ask',
          await fetch(`${base}/api/ask`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ creator: u, message: `Question ${f} from fan ${fanId}`, fanId }),
          }),
        );
        fanIds.push({ fanId, cookie: jarHeader(cookiesOf(res)) });
      }

      // Two minutes of one dashboard: status every 2 s, messages 5 s, fans 10 s, knowledge
      // progress 5 s, usage 60 s…
      const block = [];
      const add = (n, p, headers) => {
        for (let i = 0; i < n; i++) block.push({ method: 'GET', path: p, headers });
      };
      add(60, `/api/creators/username/${u}/status`, { cookie });
      add(24, `/api/creators/username/${u}/messages`, { cookie });
      add(12, `/api/creators/username/${u}/fans`, { cookie });
      add(24, `/api/chatbots/${chatbotId}/knowledge/progress`, { cookie });
      add(2, `/api/creators/username/${u}/usage`, { cookie });
      // …and its fans' chats, each reading its history every 8 s.
      for (const fan of fanIds) add(15, `/api/chatlog/fan/${fan.fanId}?creator=${u}`, { cookie: fan.cookie });
      // Every kind of request in the mix answers 2xx before it is measured.
      const seen = new Set();
      for (const r of block) {
        const kind = r.path.replace(/fan_bench_\d+_\d+/, 'fan');
        if (seen.has(kind)) continue;
        seen.add(kind);
        const res = await fetch(`${base}${r.path}`, { headers: r.headers });
        if (res.status < 200 || res.status >= 300) {
          throw new Error(`GET ${r.path} answered ${res.status}: ${await res.text()}`);
        }
        await res.arrayBuffer();
      }
      requests.push(...block);
    }
    shuffle(requests);

    // The fans' questions are answered in the background (in-process jobs, the local encoder): the
    // mix measures polling once that work is done, not polling beside it. Each fan's history is
    // read until it holds the answer (a second message).
    const chats = requests.filter((r) => r.path.startsWith('/api/chatlog/'));
    const pending = new Map(chats.map((r) => [r.path, r]));
    const waitFrom = performance.now();
    while (pending.size > 0 && performance.now() - waitFrom < 180_000) {
      for (const [p, r] of pending) {
        const res = await fetch(`${base}${p}`, { headers: { ...r.headers, 'cache-control': 'no-cache' } });
        const body = await res.json().catch(() => null);
        if (Array.isArray(body?.messages) && body.messages.length >= 2) pending.delete(p);
      }
      if (pending.size > 0) await new Promise((r) => setTimeout(r, 500));
    }
    console.log(
      `
  the fans' questions answered before the mix: ${chats.length > 0 ? new Set(chats.map((r) => r.path)).size - pending.size : 0} of ${new Set(chats.map((r) => r.path)).size} chats (${((performance.now() - waitFrom) / 1000).toFixed(1)} s)`,
    );

    const cpuBefore = cpuSeconds(running.child.pid);
    const loadFrom = running.sinceStart();
    const mix = await run(base, requests);
    const loadTo = running.sinceStart();
    const cpuPerRequest = ((cpuSeconds(running.child.pid) - cpuBefore) / mix.total) * 1e6;

    const bare = await measureBareFastify();

    console.log(
      `\napi polling mix (${DASHBOARDS} dashboards, ${FANS_PER_CREATOR} fans each, ${CONNECTIONS} connections, ${DURATION}s, PostgreSQL)`,
    );
    console.log(
      `  fanpilot api : ${mix.rps} req/s  p50 ${mix.p50} ms  p99 ${mix.p99} ms  (${mix.total} requests, ${mix.errors} errors/non-2xx)`,
    );
    console.log(`  bare fastify : ${bare.rps} req/s  p50 ${bare.p50} ms  p99 ${bare.p99} ms`);
    // The api's own CPU per answer: steadier than req/s on a shared machine (the load generator
    // and other tenants take the cores in turns), so it is what a change to the hot path is judged by.
    console.log(`  api CPU per request: ${cpuPerRequest.toFixed(1)} µs (user + system)`);
    console.log(
      `  ratio to bare fastify (same run): ${(mix.rps / bare.rps).toFixed(2)} (target >= 0.7), p99 ${mix.p99} ms (target < 10 ms)`,
    );
    const perDashboard = 122 / 120 + FANS_PER_CREATOR * (1 / 8);
    console.log(
      `  one dashboard with its fans polls ~${perDashboard.toFixed(1)} req/s: this api carries ~${Math.floor(mix.rps / perDashboard)} of them`,
    );
    if (process.env.BENCH_CPU_PROF) {
      console.log(
        `  profile: node scripts/bench/top-frames.mjs ${process.env.BENCH_CPU_PROF}/<file> --from ${loadFrom.toFixed(1)} --to ${loadTo.toFixed(1)}`,
      );
    }
    if (mix.errors > 0) {
      console.error(`  ${mix.errors} requests of the mix failed or answered non-2xx`);
      process.exitCode = 1;
    }
  } finally {
    await cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
