import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vite';

// Second build step: the service worker, as one classic script at dist/sw.js (served at /fan/sw.js).
// It runs after the app build so it can precache exactly the files that build produced; their
// contents make the version, so every new app build installs a new worker.
const dist = path.resolve(import.meta.dirname, 'dist');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name.startsWith('.') ? [] : filesUnder(full);
    return [full];
  });
}

const shellFiles = filesUnder(dist)
  .map((file) => path.relative(dist, file).split(path.sep).join('/'))
  .filter((file) => file !== 'sw.js' && !file.endsWith('.map'))
  .sort();
const version = createHash('sha256');
for (const file of shellFiles) version.update(file).update(readFileSync(path.join(dist, file)));

export default defineConfig({
  publicDir: false,
  define: {
    __PRECACHE__: JSON.stringify(shellFiles.map((file) => `/fan/${file}`)),
    __SW_VERSION__: JSON.stringify(version.digest('hex').slice(0, 12)),
  },
  build: {
    outDir: dist,
    emptyOutDir: false,
    copyPublicDir: false,
    target: 'es2022',
    minify: true,
    lib: { entry: 'src/sw/sw.ts', formats: ['iife'], name: 'fanServiceWorker', fileName: () => 'sw.js' },
  },
});
