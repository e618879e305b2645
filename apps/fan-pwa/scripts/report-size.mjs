// Reports the JavaScript and CSS the first screen loads (what dist/index.html references), gzipped,
// and writes it to dist/size.json for benchmarks to read.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../dist');
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const referenced = [...html.matchAll(/(?:src|href)="\/fan\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]);

const files = [...new Set(referenced)].map((file) => {
  const body = readFileSync(path.join(dist, file));
  return { file, bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length };
});
const sum = (kind, key) => files.filter((f) => f.file.endsWith(kind)).reduce((n, f) => n + f[key], 0);
const report = {
  firstScreenJs: { bytes: sum('.js', 'bytes'), gzipBytes: sum('.js', 'gzipBytes') },
  firstScreenCss: { bytes: sum('.css', 'bytes'), gzipBytes: sum('.css', 'gzipBytes') },
  serviceWorker: (() => {
    const body = readFileSync(path.join(dist, 'sw.js'));
    return { bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length };
  })(),
  files,
};
writeFileSync(path.join(dist, 'size.json'), `${JSON.stringify(report, null, 2)}\n`);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(
  `fan-pwa first screen: JS ${kb(report.firstScreenJs.gzipBytes)} gzipped (${kb(report.firstScreenJs.bytes)} raw), ` +
    `CSS ${kb(report.firstScreenCss.gzipBytes)} gzipped; service worker ${kb(report.serviceWorker.gzipBytes)} gzipped`,
);
