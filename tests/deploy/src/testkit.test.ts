import { spawnSync } from 'node:child_process';
import { existsSync, globSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readRepoFile, repoPath } from './repo.ts';

// The test kit (packages/testkit: fake model, seeders, fault injection, loopback servers, generated
// documents) is for tests and benchmarks only: no production build may hold any of it, no
// production package may depend on it, and production code keeps no hook for tests to call (that
// no production source imports it is checked by dependency-cruiser, boundaries.test.ts).

interface Manifest {
  name: string;
  private?: boolean;
  scripts?: Record<string, string>;
  exports?: Record<string, Record<string, string>>;
  files?: string[];
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const TESTKIT = 'packages/testkit';
const manifestOf = (dir: string) => JSON.parse(readRepoFile(dir, 'package.json')) as Manifest;
const production = globSync('{apps,packages}/*/package.json', { cwd: repoPath() })
  .map((file) => path.dirname(file))
  .filter((dir) => dir !== TESTKIT)
  .sort();
/** The node builds that ship: the api's and the worker's, and every workspace package's. */
const nodeBuilds = production.filter(
  (dir) =>
    (dir === 'apps/api' || dir === 'apps/worker' || dir.startsWith('packages/')) &&
    manifestOf(dir).scripts?.build,
);

/** Words only test-kit code holds: its package name and path, its files and its exports. */
const TESTKIT_MARKS = [
  '@fanpilot/testkit',
  'packages/testkit',
  'testkit/src',
  'fake-openai',
  'startFakeOpenAI',
  'createTestDatabase',
  'openTestDb',
  'seedCreator',
  'seedKnowledge',
  'withFaults',
  'LOOKALIKE_FACTS',
  'startYoutubeStandIn',
  'makePdfBomb',
];

/** Test-kit traces in one built folder: files named after it, and files (code or source map) that mention it. */
function testkitTraces(dist: string): string[] {
  const found: string[] = [];
  for (const file of globSync('**/*', { cwd: dist, withFileTypes: true })) {
    if (!file.isFile()) continue;
    const full = path.join(file.parentPath, file.name);
    const rel = path.relative(dist, full);
    if (/(^|[/\\])(testing|testkit|fake-openai)(\.|[/\\])/.test(rel)) found.push(`${rel} (its name)`);
    if (!/\.(js|mjs|cjs|map|d\.ts|json|html)$/.test(file.name)) continue;
    const text = readFileSync(full, 'utf8');
    for (const mark of TESTKIT_MARKS) if (text.includes(mark)) found.push(`${rel} mentions ${mark}`);
  }
  return found;
}

describe('the test kit stays out of production', () => {
  it('the dist scan finds test-kit code (a check that it can fail)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fp-dist-'));
    try {
      writeFileSync(path.join(dir, 'index.js'), 'export const ok = 1;\n');
      expect(testkitTraces(dir)).toEqual([]);
      writeFileSync(path.join(dir, 'testing.js'), 'export {};\n');
      writeFileSync(path.join(dir, 'index.js.map'), '{"sources":["../../testkit/src/fake-openai.ts"]}');
      writeFileSync(path.join(dir, 'chunk.js'), 'const openai = await startFakeOpenAI();\n');
      expect(testkitTraces(dir).sort()).toEqual([
        'chunk.js mentions startFakeOpenAI',
        'index.js.map mentions fake-openai',
        'index.js.map mentions testkit/src',
        'testing.js (its name)',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the test kit is a private, source-only package: nothing of it is built or published', () => {
    const kit = manifestOf(TESTKIT);
    expect(kit.name).toBe('@fanpilot/testkit');
    expect(kit.private).toBe(true);
    expect(kit.scripts?.build).toBeUndefined();
    expect(kit.files).toBeUndefined();
    for (const [entry, targets] of Object.entries(kit.exports ?? {})) {
      for (const target of Object.values(targets)) expect(target, entry).toMatch(/^\.\/src\/.+\.ts$/);
    }
    expect(existsSync(repoPath(TESTKIT, 'tsup.config.ts'))).toBe(false);
  });

  it.each(production)('%s depends on the test kit at most as a devDependency', (dir) => {
    const m = manifestOf(dir);
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies'] as const) {
      expect(m[field]?.['@fanpilot/testkit'], `${dir} ${field}`).toBeUndefined();
    }
    for (const [entry, targets] of Object.entries(m.exports ?? {})) {
      expect(`${entry} ${JSON.stringify(targets)}`, dir).not.toMatch(/testing|testkit/);
    }
  });

  // That no production source imports the test kit is dependency-cruiser's rule
  // `production-never-imports-the-test-kit` (.dependency-cruiser.cjs, run by boundaries.test.ts).
  it('no production source offers a hook for tests', () => {
    const found: string[] = [];
    for (const dir of production) {
      for (const file of globSync('src/**/*.{ts,tsx}', { cwd: repoPath(dir) })) {
        if (/\.(test|spec)\.tsx?$/.test(file)) continue;
        if (/\bbeforeWrite\b/.test(readRepoFile(dir, file)))
          found.push(`${dir}/${file} has a beforeWrite hook`);
      }
    }
    expect(found).toEqual([]);
  });

  describe('the built dist/ folders', () => {
    beforeAll(() => {
      // Turbo's cache makes this quick when `pnpm build` (or the test task's ^build) already ran.
      const filters = nodeBuilds.map((dir) => `--filter=${manifestOf(dir).name}`);
      const built = spawnSync(
        'pnpm',
        ['exec', 'turbo', 'run', 'build', ...filters, '--output-logs=errors-only'],
        {
          cwd: repoPath(),
          encoding: 'utf8',
          timeout: 540_000,
          env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
        },
      );
      if (built.status !== 0) throw new Error(`the build failed:\n${built.stdout}\n${built.stderr}`);
    }, 600_000);

    it('every node package and app that ships a dist/ has one, and the test kit has none', () => {
      expect(nodeBuilds).toEqual(
        expect.arrayContaining([
          'apps/api',
          'apps/worker',
          'packages/core',
          'packages/db',
          'packages/knowledge',
        ]),
      );
      const entry = (dir: string) =>
        dir === 'apps/api' ? 'server.js' : dir === 'apps/worker' ? 'main.js' : 'index.js';
      for (const dir of nodeBuilds) expect(existsSync(repoPath(dir, 'dist', entry(dir))), dir).toBe(true);
      expect(existsSync(repoPath(TESTKIT, 'dist'))).toBe(false);
    });

    it.each(nodeBuilds)('%s/dist holds no test-kit code', (dir) => {
      expect(testkitTraces(repoPath(dir, 'dist'))).toEqual([]);
    });
  });
});
