#!/usr/bin/env node
// The fan app's first-screen JavaScript and CSS: what /pwa/{username} loads before it can paint;
// beside it, the website widget's: the loader a creator's site loads (/widget.js) and what the chat
// frame loads when the launcher is opened (/widget/{username}). Limits (issue 28): loader ≤ 10 KB
// gzipped, open chat ≤ 60 KB of JavaScript gzipped.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(root, 'apps/fan-pwa/dist');
const kb = (n) => (n / 1024).toFixed(1);
const LOADER_LIMIT = 10 * 1024;
const OPEN_CHAT_JS_LIMIT = 60 * 1024;

function measure(files) {
  const rows = files.map((ref) => {
    const bytes = readFileSync(path.join(dist, ref));
    return { ref, raw: bytes.length, gz: gzipSync(bytes, { level: 9 }).length };
  });
  const sum = (kind, key) => rows.filter((r) => r.ref.endsWith(kind)).reduce((n, r) => n + r[key], 0);
  return {
    rows,
    js: { raw: sum('.js', 'raw'), gz: sum('.js', 'gz') },
    css: { raw: sum('.css', 'raw'), gz: sum('.css', 'gz') },
  };
}

function print(title, m) {
  console.log(`\n${title}`);
  for (const r of m.rows)
    console.log(`  ${r.ref.padEnd(48)} ${kb(r.raw).padStart(7)} KB  ${kb(r.gz).padStart(6)} KB gzip`);
  console.log(
    `  total${' '.repeat(44)}${kb(m.js.raw + m.css.raw).padStart(7)} KB  ${kb(m.js.gz + m.css.gz).padStart(6)} KB gzip`,
  );
}

const referencedBy = (page) =>
  [...readFileSync(path.join(dist, page), 'utf8').matchAll(/(?:src|href)="\/fan\/([^"]+\.(?:js|css))"/g)].map(
    (m) => m[1],
  );

const app = measure(referencedBy('index.html'));
print('fan app first screen (/pwa/{username})', app);

if (existsSync(path.join(dist, 'widget.html')) && existsSync(path.join(dist, 'widget.js'))) {
  const loader = measure(['widget.js']);
  const chat = measure(referencedBy('widget.html'));
  print('website widget loader (/widget.js, on the creator’s site)', loader);
  print('website widget open chat (/widget/{username}, loaded when opened)', chat);
  const check = (n, limit) => (n <= limit ? `≤ ${kb(limit)} KB: ok` : `OVER ${kb(limit)} KB`);
  console.log('\nJavaScript, gzipped:');
  console.log(`  fan app first screen   ${kb(app.js.gz).padStart(6)} KB`);
  console.log(
    `  widget loader          ${kb(loader.js.gz).padStart(6)} KB  (${check(loader.js.gz, LOADER_LIMIT)})`,
  );
  console.log(
    `  widget open chat       ${kb(chat.js.gz).padStart(6)} KB  (${check(chat.js.gz, OPEN_CHAT_JS_LIMIT)})`,
  );
} else {
  console.log('\nwebsite widget not built (apps/fan-pwa/dist/widget.html, widget.js): its sizes skipped');
}
