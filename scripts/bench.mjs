#!/usr/bin/env node
// `pnpm bench`: builds, then runs every benchmark; each prints its own numbers.
//   1. the api under the product's polling mix (docs/product.md#staying-fresh), beside a bare Fastify (PostgreSQL)
//   1b. a busy creator (10,000 fans, 200,000 messages): the polling mix with validators, event
//       streams (memory, delivery time) and each dashboard query (PostgreSQL, Redis)
//   1c. the answer path: the model's last token -> the fan's screen, and another creator's answer
//       beside one creator's 1,500 queued questions (PostgreSQL, Redis, a worker, a 3 s model)
//   Each figure is printed with its ratio to a baseline from the same run (bare Fastify, the api at
//   rest, the model's own time, the quiet server): the machine is shared, the ratios travel.
//   2. ingestion through a worker process, beside the bare parsers (PostgreSQL, Redis)
//   2b. ingestion inside the api on embedded defaults: /healthz and poll latency and the api's memory
//       while a 4,000-page PDF and a PDF bomb are processed (PGlite, in-process jobs)
//   3. retrieval over 100,000 chunks: hybrid search time and recall against exact search (PGlite, PostgreSQL);
//      the local sentence encoder (a 200-page PDF, a question) and the paraphrase set's figures
//   3b. an AI answer's server time, from the question to the model request (PGlite, local encoder)
//   3c. Insights for a creator with 10,000 fans and 100,000 questions: the report computed, a cached
//       call, grouping new questions (PGlite, PostgreSQL)
//   4. the fan app's first-screen bundle size, and the website widget's loader and open chat beside it
//      (when the fan app is built)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const step = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.error) {
    console.error(`${cmd} ${args.join(' ')}: ${r.error.message}`);
    process.exit(1);
  }
  if (r.status !== 0) process.exit(r.status ?? 1);
};
// What the benchmarks run: the api and the worker, and the fan app when this checkout has one.
const apps = ['@fanpilot/api', '@fanpilot/worker', '@fanpilot/dashboard'];
if (existsSync(path.join(root, 'apps/fan-pwa/index.html'))) apps.push('@fanpilot/fan-pwa');
step('pnpm', ['exec', 'turbo', 'run', 'build', ...apps.map((app) => `--filter=${app}`)]);
step(process.execPath, ['scripts/bench/first-paint.mjs']);
step(process.execPath, ['scripts/bench/api-polling.mjs']);
step(process.execPath, ['scripts/bench/inbox-scale.mjs']);
step(process.execPath, ['scripts/bench/answer-path.mjs']);
step('pnpm', ['--filter', '@fanpilot/worker', 'bench']);
step(process.execPath, ['scripts/bench/ingest-responsiveness.mjs']);
step('pnpm', ['--filter', '@fanpilot/knowledge', 'bench']);
step('pnpm', ['--filter', '@fanpilot/answers', 'bench']);
step('pnpm', ['--filter', '@fanpilot/core', 'bench']);
if (existsSync(path.join(root, 'apps/fan-pwa/dist/index.html'))) {
  step(process.execPath, ['scripts/bench/fan-bundle.mjs']);
} else {
  console.log('\nfan app not built (apps/fan-pwa/dist): bundle size skipped');
}
