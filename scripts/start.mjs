#!/usr/bin/env node
// `pnpm start`: the built product on one origin. Builds first if a build is missing.
// With REDIS_URL set, jobs go through BullMQ and the ingest worker runs as its own process.
// The repo root's .env is read first; a variable set in the environment wins over it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dotEnvLine, loadDotEnv } from './env-file.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
console.log(dotEnvLine(loadDotEnv(root)));
const needed = ['apps/api/dist/server.js', 'apps/dashboard/dist/index.html', 'apps/fan-pwa/dist/index.html'];
// The workspace packages the apps import run from their own dist/ (docs/architecture.md).
for (const pkg of [
  'answers',
  'config',
  'contracts',
  'core',
  'db',
  'jobs',
  'knowledge',
  'payments',
  'storage',
]) {
  needed.push(`packages/${pkg}/dist/index.js`);
}
if (process.env.REDIS_URL) needed.push('apps/worker/dist/main.js');
const built = needed.every((f) => existsSync(path.join(root, f)));

if (!built) {
  console.log('Building Fanpilot first (pnpm build)…');
  const r = spawnSync('pnpm', ['build'], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const children = [];
// The api's V8 heap kept small, as in its image (infra/docker/api.Dockerfile, record 0091).
const flags = { 'apps/api/dist/server.js': ['--max-semi-space-size=8', '--heap-growing-percent=20'] };
const run = (file) => {
  const child = spawn(
    process.execPath,
    ['--enable-source-maps', ...(flags[file] ?? []), path.join(root, file)],
    {
      cwd: root,
      stdio: 'inherit',
      env: process.env,
    },
  );
  children.push(child);
  child.on('exit', (code, signal) => {
    // One part stopping stops the whole product.
    for (const other of children) if (other !== child && other.exitCode === null) other.kill('SIGTERM');
    process.exitCode = code ?? (signal ? 1 : 0);
  });
  return child;
};

run('apps/api/dist/server.js');
if (process.env.REDIS_URL) run('apps/worker/dist/main.js');

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) if (child.exitCode === null) child.kill(signal);
  });
}
