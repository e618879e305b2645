#!/usr/bin/env node
// The top frames of a V8 .cpuprofile (node --cpu-prof): self time by function and by package, as a
// share of the profile's busy (non-idle) samples.
//   node scripts/bench/top-frames.mjs FILE [N] [--from S] [--to S]
// --from/--to keep only the samples taken that many seconds after the profile started (a load
// phase; the benches print the window).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { from: { type: 'string' }, to: { type: 'string' } },
});
const [file, n = '25'] = positionals;
if (!file) {
  console.error('usage: top-frames.mjs FILE.cpuprofile [N] [--from S] [--to S]');
  process.exit(2);
}
const from = Number(values.from ?? 0) * 1e6;
const to = values.to === undefined ? Number.POSITIVE_INFINITY : Number(values.to) * 1e6;
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
let t = 0;
profile.samples.forEach((id, i) => {
  t += profile.timeDeltas[i];
  if (t >= from && t <= to) self.set(id, (self.get(id) ?? 0) + 1);
});

const where = (cf) => {
  const url = cf.url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith('node:')) return 'node:internal';
  if (/\/(apps|packages)\/([^/]+)\//.test(url))
    return /\/(apps|packages)\/([^/]+)\//.exec(url)?.slice(1).join('/');
  return url ? 'other' : '(native/vm)';
};
const short = (url) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?/, '')
    .replace(/.*\/(apps|packages)\//, '$1/');

const fns = new Map();
const pkgs = new Map();
let busy = 0;
let idle = 0;
for (const [id, count] of self) {
  const cf = byId.get(id).callFrame;
  if (cf.functionName === '(idle)' || cf.functionName === '(program)') {
    idle += count;
    continue;
  }
  busy += count;
  const key = `${cf.functionName || '(anonymous)'} ${short(cf.url)}:${cf.lineNumber + 1}`;
  fns.set(key, (fns.get(key) ?? 0) + count);
  const p = where(cf);
  pkgs.set(p, (pkgs.get(p) ?? 0) + count);
}
const pct = (c) => `${((100 * c) / busy).toFixed(1).padStart(5)}%`;
console.log(`${file}: ${busy} busy samples (${((100 * busy) / (busy + idle)).toFixed(0)}% of the profile)`);
console.log('\nself time by package');
for (const [k, c] of [...pkgs].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${pct(c)}  ${k}`);
console.log('\nself time by function');
for (const [k, c] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, Number(n)))
  console.log(`  ${pct(c)}  ${k}`);
