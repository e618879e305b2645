#!/usr/bin/env node
// Ingestion beside the api on embedded defaults: the built api (apps/api/dist/server.js) with no
// DATABASE_URL and no REDIS_URL, so PGlite and the in-process job runner share its process, as with
// `pnpm start`. A creator uploads a ~9 MB, 4,000-page PDF, then a PDF bomb (a 1-page PDF of ~1 MB
// whose content stream inflates to BENCH_BOMB_MB MB). While each is processed, /healthz and the
// dashboard's knowledge-progress poll are each requested BENCH_POLL_CLIENTS times every
// BENCH_POLL_EVERY_MS ms on a fixed schedule (latency counted from when a request was due); prints their p50/p99/max latency, how long the item took, how it ended, and the
// api process's resident memory (peak, and above its idle level). Target: p99 under 100 ms.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort, must, requireFromApi, root, signUpCreator } from './lib.mjs';

const PAGES = Number(process.env.BENCH_BIG_PDF_PAGES ?? 4000);
const BOMB_MB = Number(process.env.BENCH_BOMB_MB ?? 1000);
const EVERY_MS = Number(process.env.BENCH_POLL_EVERY_MS ?? 100);
const CLIENTS = Number(process.env.BENCH_POLL_CLIENTS ?? 2);
/** An item still processing after this long is reported as such and the bench moves on. */
const ITEM_BUDGET_MS = Number(process.env.BENCH_ITEM_BUDGET_MS ?? 180_000);

const { OAuth2Server, Events } = await import(
  pathToFileURL(requireFromApi.resolve('oauth2-mock-server')).href
);
const { makePdf, makePdfBomb } = await import(
  pathToFileURL(requireFromApi.resolve('@fanpilot/testkit')).href
);

const WORDS =
  'athlete recovery sleep protein squat deadlift mobility breathing tempo volume rest cadence stretch hydration coach session warmup cooldown plank lunge kettlebell sprint interval threshold'.split(
    ' ',
  );
const sentence = (seed, n) =>
  Array.from({ length: n }, (_, i) => WORDS[(seed * 7 + i * 13 + ((seed * i) % 5)) % WORDS.length]).join(' ');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (xs, p) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const fmt = (n) => (Number.isNaN(n) ? '–' : n < 10 ? n.toFixed(1) : String(Math.round(n)));

/** Resident memory of a process in MB (Linux). */
const rssMb = (pid) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

/**
 * Requests `url` on a fixed schedule, CLIENTS requests every EVERY_MS ms, until stop(); each
 * latency counts from when its request was due, not when it went out, so a stall of the api is
 * felt by every request due during it (no coordinated omission), as by real clients polling.
 */
function hammer(url, headers = {}) {
  const latencies = [];
  const inFlight = new Set();
  let errors = 0;
  let running = true;
  const t0 = performance.now();
  let n = 0;
  const fire = (due) => {
    const request = fetch(url, { headers })
      .then(async (res) => {
        await res.arrayBuffer();
        if (!res.ok) errors++;
      })
      .catch(() => {
        errors++;
      })
      .then(() => {
        latencies.push(performance.now() - due);
        inFlight.delete(request);
      });
    inFlight.add(request);
  };
  const tick = () => {
    if (!running) return;
    const now = performance.now();
    // Every request due by now goes out (a late timer sends the ones it missed, each with its due time).
    for (;;) {
      const due = t0 + (n * EVERY_MS) / CLIENTS;
      if (due > now) break;
      fire(due);
      n++;
    }
    setTimeout(tick, Math.max(0, t0 + (n * EVERY_MS) / CLIENTS - performance.now()));
  };
  tick();
  return {
    async stop() {
      running = false;
      await Promise.all(inFlight);
      return { latencies, errors };
    },
  };
}

async function main() {
  const identity = { sub: 'bench-ingest', name: 'Bench Ingest', email: 'ingest@example.com' };
  const oidc = new OAuth2Server();
  await oidc.issuer.keys.generate('RS256');
  oidc.service.on(Events.BeforeTokenSigning, (token) => Object.assign(token.payload, identity));
  oidc.service.on(Events.BeforeUserinfo, (response) => {
    response.body = { ...identity, email_verified: true };
  });
  await oidc.start(0, '127.0.0.1');

  const dataDir = mkdtempSync(path.join(tmpdir(), 'fanpilot-bench-ingest-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // Embedded defaults: no DATABASE_URL (PGlite under DATA_DIR), no REDIS_URL (jobs in-process), no S3.
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_API_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      path.join(root, 'apps/api/dist/server.js'),
    ],
    {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_ORIGIN: base,
        DATA_DIR: dataDir,
        LOG_LEVEL: process.env.BENCH_API_LOG ?? 'warn',
        GOOGLE_CLIENT_ID: 'fanpilot-bench',
        GOOGLE_CLIENT_SECRET: 'fanpilot-bench-secret',
        OAUTH_ISSUER: oidc.issuer.url,
        ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('INGEST_'))),
      },
      stdio: ['ignore', process.env.BENCH_API_LOG ? 'inherit' : 'ignore', 'inherit'],
    },
  );
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    await oidc.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/readyz`)).ok) break;
      } catch {}
      if (child.exitCode !== null || i >= 300) throw new Error('the api did not become ready');
      await sleep(200);
    }

    const { cookie, chatbotId } = await signUpCreator(base, 'Bench Ingest Bot');
    const progressUrl = `${base}/api/chatbots/${chatbotId}/knowledge/progress`;
    await must('progress', await fetch(progressUrl, { headers: { cookie } }));

    let t = performance.now();
    const big = makePdf(
      Array.from({ length: PAGES }, (_, p) => Array.from({ length: 30 }, (_, l) => sentence(p * 30 + l, 7))),
      { title: 'A very long handbook' },
    );
    const bomb = await makePdfBomb(BOMB_MB);
    console.log(
      `\ningestion beside the api (embedded defaults: PGlite, in-process jobs; ${CLIENTS} requests per route every ${EVERY_MS} ms, latency from when each was due)`,
    );
    console.log(
      `  files: ${PAGES}-page PDF ${(big.length / 1e6).toFixed(1)} MB; PDF bomb ${(bomb.length / 1e6).toFixed(1)} MB inflating to ${BOMB_MB} MB (made in ${Math.round(performance.now() - t)} ms)`,
    );

    // Idle first: what the routes cost with nothing being ingested.
    await sleep(1000);
    const idleRss = rssMb(child.pid);
    const phase = async (label, send) => {
      const health = hammer(`${base}/healthz`);
      const poll = hammer(progressUrl, { cookie });
      let peak = rssMb(child.pid);
      const sampler = setInterval(() => {
        if (child.exitCode === null) peak = Math.max(peak, rssMb(child.pid));
      }, 50);
      t = performance.now();
      let outcome = 'idle';
      if (send) {
        const item = await send();
        outcome = 'still processing';
        while (performance.now() - t < ITEM_BUDGET_MS) {
          const res = await fetch(progressUrl, { headers: { cookie } });
          const progress = await res.json();
          const mine = (progress.items ?? progress).find?.((i) => i.id === item.id);
          if (mine && !['pending', 'processing'].includes(mine.status)) {
            outcome = `${mine.status}${mine.error ? `: "${mine.error}"` : ''}`;
            break;
          }
          await sleep(200);
        }
      } else {
        await sleep(3000);
      }
      const took = performance.now() - t;
      clearInterval(sampler);
      const h = await health.stop();
      const p = await poll.stop();
      console.log(`  ${label}: ${(took / 1000).toFixed(1)} s, ${outcome}`);
      for (const [name, r] of [
        ['/healthz ', h],
        ['progress ', p],
      ]) {
        console.log(
          `    ${name} p50 ${fmt(pct(r.latencies, 50))} ms  p99 ${fmt(pct(r.latencies, 99))} ms  max ${fmt(Math.max(...r.latencies))} ms  (${r.latencies.length} requests, ${r.errors} failed)`,
        );
      }
      console.log(`    api rss   peak ${Math.round(peak)} MB (+${Math.round(peak - idleRss)} MB over idle)`);
      return { h, p };
    };
    const uploadFile = async (name, bytes) => {
      const form = new FormData();
      form.append('file', new Blob([bytes], { type: 'application/pdf' }), name);
      const res = await must(
        `upload ${name}`,
        await fetch(`${base}/api/chatbots/${chatbotId}/knowledge/upload`, {
          method: 'POST',
          headers: { cookie, origin: base },
          body: form,
        }),
      );
      return res.json();
    };
    console.log(`  api rss idle ${Math.round(idleRss)} MB`);
    await phase('idle', null);
    const a = await phase(`${PAGES}-page PDF`, () => uploadFile('handbook.pdf', big));
    const b = await phase('PDF bomb', () => uploadFile('bomb.pdf', bomb));
    const worst = Math.max(
      ...[a.h, a.p, b.h, b.p].map((r) => pct(r.latencies, 99)).filter((n) => !Number.isNaN(n)),
    );
    console.log(`  worst p99 while ingesting: ${fmt(worst)} ms (target < 100 ms)`);
    if (child.exitCode !== null) {
      console.error('  the api process died during the bench');
      process.exitCode = 1;
    }
  } finally {
    await stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
