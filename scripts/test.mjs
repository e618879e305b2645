#!/usr/bin/env node
// `pnpm test`: the whole suite — Biome, typecheck, then every package's tests one package at a time.
// Tests that need PostgreSQL, Redis or Chromium use the machine's (README: quick start); set
// TEST_DATABASE_URL / TEST_REDIS_URL to point elsewhere, or to '' to skip those parts.
import { spawnSync } from 'node:child_process';

const env = {
  ...process.env,
  TEST_DATABASE_URL: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  TEST_REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
};
const steps = [
  ['biome', ['check', '.']],
  ['turbo', ['run', 'typecheck']],
  ['turbo', ['run', 'test', '--concurrency=1', '--continue']],
];
for (const [cmd, args] of steps) {
  const r = spawnSync('pnpm', ['exec', cmd, ...args], { stdio: 'inherit', env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
