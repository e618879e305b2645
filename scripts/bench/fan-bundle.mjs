#!/usr/bin/env node
// The fan app's first-screen JavaScript and CSS: what /pwa/{username} loads before it can paint.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(root, 'apps/fan-pwa/dist');
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const refs = [...html.matchAll(/(?:src|href)="\/fan\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]);
let raw = 0;
let gz = 0;
console.log('\nfan app first screen (/pwa/{username})');
for (const ref of refs) {
  const bytes = readFileSync(path.join(dist, ref));
  const g = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gz += g;
  console.log(
    `  ${ref.padEnd(48)} ${(bytes.length / 1024).toFixed(1).padStart(7)} KB  ${(g / 1024).toFixed(1).padStart(6)} KB gzip`,
  );
}
console.log(
  `  total${' '.repeat(44)}${(raw / 1024).toFixed(1).padStart(7)} KB  ${(gz / 1024).toFixed(1).padStart(6)} KB gzip`,
);
