#!/usr/bin/env node
// `pnpm bench`: builds, then runs every benchmark; each prints its own numbers.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const step = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
step('pnpm', ['build']);
const benches = ['scripts/bench/api-polling.mjs', 'scripts/bench/ingest.mjs', 'scripts/bench/fan-bundle.mjs'];
for (const bench of benches) {
  if (existsSync(path.join(root, bench))) step(process.execPath, [bench]);
}
