import { existsSync, globSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { describe, expect, it } from 'vitest';
import { readRepoFile, repoPath } from './repo.ts';

// Each workspace package and app depends on exactly what its own code imports: the api and the
// worker import @fanpilot/db, and pg is packages/db's dependency, not theirs. `pnpm deploy` then
// installs each package's own dependencies beside its built dist/ (tsup.shared.ts keeps workspace
// and npm packages out of every bundle), so no app re-lists another package's dependencies.

interface Manifest {
  name: string;
  exports?: Record<string, { default?: string }>;
  files?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const readManifest = (dir: string) => JSON.parse(readRepoFile(dir, 'package.json')) as Manifest;

/**
 * Loopback stand-ins `pnpm start` runs in place of outside services when none is configured: each
 * is a devDependency (`pnpm deploy --prod` leaves it out of the image) that the app loads only by
 * dynamic import, and only outside production (record 0070).
 */
const DEV_ONLY: Record<string, string[]> = {
  'apps/api': ['@fanpilot/local-stripe', 'oauth2-mock-server'],
};
const dirs = globSync('{apps,packages}/*', { cwd: repoPath() }).filter((dir) =>
  existsSync(repoPath(dir, 'src')),
);

const IMPORT =
  /^\s*(?:import|export)\s+(type\s+)?[^'"]*?\bfrom\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** The npm or workspace packages a source text imports, each with whether only its types are. */
function importsIn(source: string): Map<string, boolean> {
  const found = new Map<string, boolean>();
  for (const m of source.matchAll(IMPORT)) {
    const spec = m[2] ?? m[3] ?? m[4] ?? m[5];
    if (!spec || spec.startsWith('.') || spec.startsWith('node:')) continue;
    const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
    if (builtinModules.includes(name)) continue;
    found.set(name, (found.get(name) ?? true) && Boolean(m[1]));
  }
  return found;
}

/** What a package's shipped code imports (its tests aside). */
function importsOf(dir: string, self: string): Map<string, boolean> {
  const all = new Map<string, boolean>();
  for (const file of globSync('src/**/*.{ts,tsx}', { cwd: repoPath(dir) })) {
    if (/\.test\.tsx?$/.test(file)) continue;
    for (const [name, typeOnly] of importsIn(readRepoFile(dir, file))) {
      if (name !== self) all.set(name, (all.get(name) ?? true) && typeOnly);
    }
  }
  return all;
}

/** The peer dependencies of a package's dependencies (listed so that pnpm can satisfy them). */
function peersOf(dir: string, deps: string[]): Set<string> {
  const peers = new Set<string>();
  for (const dep of deps) {
    const manifest = repoPath(dir, 'node_modules', dep, 'package.json');
    if (!existsSync(manifest)) continue;
    for (const peer of Object.keys(readManifest(`${dir}/node_modules/${dep}`).peerDependencies ?? {})) {
      peers.add(peer);
    }
  }
  return peers;
}

describe('package dependencies', () => {
  it('the import scan sees every kind of import (a check that it can fail)', () => {
    const found = importsIn(
      "import { a } from 'pg';\nimport type { B } from '@x/y/z';\nexport * from 'zod';\nconst m = await import('s3rver');\nimport 'side-effect';\nconst { x } = require('cjs-only');\nimport { c } from './local.ts';\nimport fs from 'node:fs';",
    );
    expect(Object.fromEntries(found)).toEqual({
      pg: false,
      '@x/y': true,
      zod: false,
      s3rver: false,
      'side-effect': false,
      'cjs-only': false,
    });
  });

  it.each(dirs)('%s lists everything its code imports', (dir) => {
    const manifest = readManifest(dir);
    const listed = { ...manifest.dependencies, ...manifest.peerDependencies };
    const devOnly = DEV_ONLY[dir] ?? [];
    const missing = [...importsOf(dir, manifest.name)]
      .filter(([name, typeOnly]) => !listed[name] && !(typeOnly && manifest.devDependencies?.[name]))
      .filter(([name]) => !(devOnly.includes(name) && manifest.devDependencies?.[name]))
      .map(([name]) => name);
    expect(missing).toEqual([]);
  });

  it.each(dirs)('%s lists no dependency it does not import (or that is not a peer of one)', (dir) => {
    const manifest = readManifest(dir);
    const deps = Object.keys(manifest.dependencies ?? {});
    const imported = importsOf(dir, manifest.name);
    const peers = peersOf(dir, deps);
    expect(deps.filter((name) => !imported.has(name) && !peers.has(name))).toEqual([]);
  });

  it.each(Object.entries(DEV_ONLY))(
    '%s holds its dev-only stand-ins as devDependencies, loaded by dynamic import only',
    (dir, standIns) => {
      const manifest = readManifest(dir);
      const staticImports: string[] = [];
      for (const file of globSync('src/**/*.{ts,tsx}', { cwd: repoPath(dir) })) {
        if (/\.test\.tsx?$/.test(file)) continue;
        for (const m of readRepoFile(dir, file).matchAll(IMPORT)) {
          const spec = m[2] ?? m[4] ?? m[5];
          // A type-only import leaves nothing behind at run time.
          if (spec && standIns.includes(spec) && !m[1]) staticImports.push(`${file}: ${spec}`);
        }
      }
      expect(staticImports).toEqual([]);
      for (const name of standIns) {
        expect(manifest.devDependencies?.[name], `${dir} devDependencies ${name}`).toBeDefined();
        expect(manifest.dependencies?.[name], `${dir} dependencies ${name}`).toBeUndefined();
      }
    },
  );

  it('the api and the worker depend on the workspace packages they import, and on none of their npm packages', () => {
    for (const app of ['apps/api', 'apps/worker']) {
      const deps = readManifest(app).dependencies ?? {};
      expect(deps['@fanpilot/db'], app).toBe('workspace:*');
      expect(deps['@fanpilot/knowledge'], app).toBe('workspace:*');
      for (const theirs of [
        'pg',
        '@electric-sql/pglite',
        'bullmq',
        'pdf-parse',
        'mammoth',
        '@langchain/openai',
      ]) {
        expect(deps[theirs], `${app} re-lists ${theirs}`).toBeUndefined();
      }
    }
  });

  it('every package node runs is built to dist/ and ships it', () => {
    // packages/ui is built by the apps' vite; packages/testkit is never built (testkit.test.ts).
    const built = dirs.filter(
      (d) => d.startsWith('packages/') && d !== 'packages/ui' && d !== 'packages/testkit',
    );
    for (const dir of built) {
      const manifest = readManifest(dir);
      const root = manifest.exports?.['.'];
      expect(root?.default, dir).toBe('./dist/index.js');
      expect(root, dir).toHaveProperty(['@fanpilot/source'], './src/index.ts');
      expect(manifest.files, dir).toContain('dist');
      expect(existsSync(repoPath(dir, 'tsup.config.ts')), dir).toBe(true);
    }
  });
});
