// Reports the JavaScript and CSS the first screen loads (what dist/index.html references), gzipped,
// and the website widget's (the loader dist/widget.js, and what the open chat's dist/widget.html
// references), and writes it to dist/size.json for benchmarks to read.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../dist');
const referencedBy = (page) => {
  const html = readFileSync(path.join(dist, page), 'utf8');
  return [...html.matchAll(/(?:src|href)="\/fan\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]);
};
const measure = (file) => {
  const body = readFileSync(path.join(dist, file));
  return { file, bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length };
};
const total = (list, kind, key) => list.filter((f) => f.file.endsWith(kind)).reduce((n, f) => n + f[key], 0);

const files = [...new Set(referencedBy('index.html'))].map(measure);
const sum = (kind, key) => total(files, kind, key);
const widgetFiles = [...new Set(referencedBy('widget.html'))].map(measure);
const loader = measure('widget.js');
const report = {
  firstScreenJs: { bytes: sum('.js', 'bytes'), gzipBytes: sum('.js', 'gzipBytes') },
  firstScreenCss: { bytes: sum('.css', 'bytes'), gzipBytes: sum('.css', 'gzipBytes') },
  serviceWorker: (() => {
    const body = readFileSync(path.join(dist, 'sw.js'));
    return { bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length };
  })(),
  files,
  widget: {
    loader: { bytes: loader.bytes, gzipBytes: loader.gzipBytes },
    openChatJs: {
      bytes: total(widgetFiles, '.js', 'bytes'),
      gzipBytes: total(widgetFiles, '.js', 'gzipBytes'),
    },
    openChatCss: {
      bytes: total(widgetFiles, '.css', 'bytes'),
      gzipBytes: total(widgetFiles, '.css', 'gzipBytes'),
    },
    files: widgetFiles,
  },
};
writeFileSync(path.join(dist, 'size.json'), `${JSON.stringify(report, null, 2)}\n`);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(
  `fan-pwa first screen: JS ${kb(report.firstScreenJs.gzipBytes)} gzipped (${kb(report.firstScreenJs.bytes)} raw), ` +
    `CSS ${kb(report.firstScreenCss.gzipBytes)} gzipped; service worker ${kb(report.serviceWorker.gzipBytes)} gzipped`,
);
console.log(
  `website widget: loader ${kb(report.widget.loader.gzipBytes)} gzipped; open chat JS ` +
    `${kb(report.widget.openChatJs.gzipBytes)} gzipped (${kb(report.widget.openChatJs.bytes)} raw), CSS ${kb(report.widget.openChatCss.gzipBytes)} gzipped`,
);
