#!/usr/bin/env node
// Builds the browser extension into dist/ (load it unpacked from there) and a zip of it ready for a
// store (fanpilot-extension-<version>.zip). The origin it talks to is set here:
//   FANPILOT_ORIGIN=https://fanpilot.example pnpm build     (default http://localhost:3000)
// and can be changed in the extension's options. EXTENSION_OUT_DIR builds elsewhere (the e2e test).
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { build } from 'vite';

const here = path.resolve(import.meta.dirname, '..');
const outDir = path.resolve(process.env.EXTENSION_OUT_DIR ?? path.join(here, 'dist'));
const rawOrigin = process.env.FANPILOT_ORIGIN || 'http://localhost:3000';
if (!URL.canParse(rawOrigin) || !/^https?:$/.test(new URL(rawOrigin).protocol)) {
  console.error(`FANPILOT_ORIGIN must be an http(s) address; got ${rawOrigin}`);
  process.exit(1);
}
const origin = new URL(rawOrigin).origin;
const { version } = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8'));

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

// Each script is one classic file: a worker, a content script and two pages, nothing shared at run time.
for (const entry of ['background', 'sidepanel', 'options', 'content']) {
  await build({
    configFile: false,
    root: here,
    logLevel: 'warn',
    resolve: { conditions: ['@fanpilot/source', 'module', 'browser', 'development|production'] },
    define: { __FANPILOT_ORIGIN__: JSON.stringify(origin) },
    build: {
      outDir,
      emptyOutDir: false,
      target: 'es2022',
      sourcemap: false,
      copyPublicDir: false,
      lib: {
        entry: path.join(here, 'src', `${entry}.ts`),
        formats: ['iife'],
        name: `fanpilot_${entry}`,
        fileName: () => `${entry}.js`,
      },
    },
  });
}
for (const file of ['sidepanel.html', 'options.html', 'panel.css'])
  copyFileSync(path.join(here, 'src', file), path.join(outDir, file));
copyFileSync(path.join(here, 'icons', 'icon-128.png'), path.join(outDir, 'icon-128.png'));

const manifest = {
  manifest_version: 3,
  name: 'Fanpilot',
  version,
  description: 'Chat with the creators you follow, in your browser’s side panel.',
  icons: { 128: 'icon-128.png' },
  action: { default_title: 'Fanpilot', default_icon: { 128: 'icon-128.png' } },
  side_panel: { default_path: 'sidepanel.html' },
  background: { service_worker: 'background.js' },
  options_page: 'options.html',
  permissions: ['sidePanel', 'storage', 'alarms', 'notifications'],
  host_permissions: [`${origin}/*`],
  // Another Fanpilot address, chosen in the options, is asked for then.
  optional_host_permissions: ['https://*/*', 'http://*/*'],
  content_scripts: [{ matches: [`${origin}/pwa/*`], js: ['content.js'], run_at: 'document_start' }],
};
writeFileSync(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

// The store's package: a zip of dist/ (deflate), written here so the build needs no zip tool.
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else files.push(full);
  }
};
walk(outDir);
const zipPath = path.join(path.dirname(outDir), `fanpilot-extension-${version}.zip`);
writeFileSync(
  zipPath,
  zip(
    files.map((f) => ({ name: path.relative(outDir, f).split(path.sep).join('/'), data: readFileSync(f) })),
  ),
);
console.log(`extension: ${outDir} (origin ${origin}), ${path.relative(process.cwd(), zipPath)}`);

function crc32(buf) {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function zip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const packed = deflateRawSync(data, { level: 9 });
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(0x00210000, 10); // 1980-01-01: the same bytes for the same build
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    locals.push(local, nameBytes, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(0x00210000, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + packed.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}
