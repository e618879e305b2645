import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise, type ICruiseOptions, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoPath } from './repo.ts';

// The layering of docs/architecture.md ("Arrows run one way") is written once, as
// dependency-cruiser rules in .dependency-cruiser.cjs; this test runs dependency-cruiser over the
// sources of apps/ and packages/ and expects no rule broken, and proves on a small synthetic
// workspace that each kind of wrong arrow is caught.

const CONFIG = repoPath('.dependency-cruiser.cjs');

async function cruiseIn(baseDir: string, roots: string[]): Promise<ICruiseResult> {
  const tsConfigFile = repoPath('tsconfig.base.json');
  const options: ICruiseOptions = {
    ...(await extractDepcruiseOptions(CONFIG)),
    baseDir,
    tsConfig: { fileName: tsConfigFile },
  };
  const tsConfig = extractTSConfig(tsConfigFile);
  const { output } = await cruise(roots, options, {}, { tsConfig });
  return output as ICruiseResult;
}

const violationsOf = (result: ICruiseResult) =>
  result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();

/** The workspace folder (`packages/core`) a module path lies in. */
const packageOf = (file: string) => file.split('/').slice(0, 2).join('/');
const isTest = (file: string) => /\.test\.tsx?$|\/(test|bench|quality|scripts)\//.test(file);

describe('package boundaries (dependency-cruiser)', () => {
  let repo: ICruiseResult;
  beforeAll(async () => {
    repo = await cruiseIn(repoPath(), ['apps', 'packages']);
  }, 60_000);

  it('the sources of apps/ and packages/ break no layering rule', () => {
    expect(repo.summary.error).toBe(0);
    expect(violationsOf(repo)).toEqual([]);
  });

  it('every workspace import resolves to the sources of a package (so the rules see it)', () => {
    const unresolved: string[] = [];
    const arrows = new Set<string>();
    for (const mod of repo.modules) {
      for (const dep of mod.dependencies) {
        if (!dep.module.startsWith('@fanpilot/')) continue;
        if (dep.couldNotResolve || !/^packages\/[^/]+\//.test(dep.resolved)) {
          unresolved.push(`${mod.source} → ${dep.module}`);
        } else arrows.add(`${packageOf(mod.source)} → ${packageOf(dep.resolved)}`);
      }
    }
    expect(unresolved).toEqual([]);
    // The arrows the map draws are among those seen (a check that the cruise saw real imports).
    for (const arrow of [
      'apps/api → packages/core',
      'packages/core → packages/db',
      'packages/answers → packages/knowledge',
      'packages/background → packages/answers',
      'apps/fan-pwa → packages/contracts',
    ]) {
      expect(arrows).toContain(arrow);
    }
  });

  it('the packages, their tests aside, form no cycle', () => {
    const graph = new Map<string, Set<string>>();
    for (const mod of repo.modules) {
      if (!mod.source.startsWith('packages/') || isTest(mod.source)) continue;
      for (const dep of mod.dependencies) {
        const from = packageOf(mod.source);
        const to = packageOf(dep.resolved);
        if (!to.startsWith('packages/') || to === from) continue;
        graph.set(from, (graph.get(from) ?? new Set()).add(to));
      }
    }
    const cycles: string[] = [];
    const walk = (node: string, trail: string[]) => {
      if (trail.includes(node)) {
        cycles.push([...trail.slice(trail.indexOf(node)), node].join(' → '));
        return;
      }
      for (const next of graph.get(node) ?? []) walk(next, [...trail, node]);
    };
    for (const start of graph.keys()) walk(start, []);
    expect(cycles).toEqual([]);
  });

  describe('on a workspace with every kind of wrong arrow (a check that it can fail)', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'fp-boundaries-'));
      const files: Record<string, string> = {
        'apps/api/src/index.ts':
          "import { ask } from '../../../packages/core/src/index.ts';\nexport const api = ask;\n",
        'apps/worker/src/index.ts': "import { api } from '../../api/src/index.ts';\nexport const w = api;\n",
        'apps/dashboard/src/main.ts':
          "import { ask } from '../../../packages/core/src/index.ts';\nexport const screen = ask;\n",
        'apps/fan-pwa/src/main.ts':
          "import { route } from '../../../packages/contracts/src/index.ts';\nexport const screen = route;\n",
        'packages/contracts/src/index.ts':
          "import { env } from '../../config/src/index.ts';\nexport const route = env;\n",
        'packages/config/src/index.ts': 'export const env = 1;\n',
        'packages/core/src/index.ts': [
          "import { retrieve } from '../../knowledge/src/index.ts';",
          "import { seed } from '../../testkit/src/index.ts';",
          "import { verify } from '../../payments/src/index.ts';",
          "import type { Fact } from '../../payments/src/index.ts';",
          "import { api } from '../../../apps/api/src/index.ts';",
          'export const ask = (f?: Fact) => [retrieve, seed, verify, api, f];',
          '',
        ].join('\n'),
        'packages/core/src/ask.test.ts':
          "import { seed } from '../../testkit/src/index.ts';\nexport const t = seed;\n",
        'packages/knowledge/src/index.ts':
          "import { ask } from '../../core/src/index.ts';\nexport const retrieve = () => ask;\n",
        'packages/payments/src/index.ts': 'export type Fact = string;\nexport const verify = 1;\n',
        'packages/testkit/src/index.ts': 'export const seed = 1;\n',
        'packages/jobs/src/index.ts':
          "import { start } from '../../background/src/index.ts';\nexport const queue = start;\n",
        'packages/background/src/index.ts': 'export const start = 1;\n',
      };
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
        writeFileSync(path.join(dir, file), text);
      }
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('names each broken rule, and lets the allowed arrows pass', async () => {
      const result = await cruiseIn(dir, ['apps', 'packages']);
      const found = violationsOf(result);
      for (const expected of [
        'packages-never-import-apps: packages/core/src/index.ts → apps/api/src/index.ts',
        'apps-never-import-each-other: apps/worker/src/index.ts → apps/api/src/index.ts',
        'web-apps-never-import-server-packages: apps/dashboard/src/main.ts → packages/core/src/index.ts',
        'contracts-and-config-import-nothing-of-ours: packages/contracts/src/index.ts → packages/config/src/index.ts',
        'core-imports-only-db-and-contracts: packages/core/src/index.ts → packages/knowledge/src/index.ts',
        'core-imports-only-db-and-contracts: packages/core/src/index.ts → packages/testkit/src/index.ts',
        'core-reads-payments-types-only: packages/core/src/index.ts → packages/payments/src/index.ts',
        'production-never-imports-the-test-kit: packages/core/src/index.ts → packages/testkit/src/index.ts',
        'jobs-imports-nothing-of-ours: packages/jobs/src/index.ts → packages/background/src/index.ts',
        'only-apps-start-the-background: packages/jobs/src/index.ts → packages/background/src/index.ts',
        'no-cycle-between-packages: packages/core/src/index.ts → packages/knowledge/src/index.ts',
      ]) {
        expect(found).toContain(expected);
      }
      // Allowed: an app importing a package, a web app importing contracts, a test using the kit.
      expect(found.filter((v) => v.includes('apps/api/src/index.ts → packages/'))).toEqual([]);
      expect(found.filter((v) => v.includes('apps/fan-pwa/'))).toEqual([]);
      expect(found.filter((v) => v.includes('ask.test.ts'))).toEqual([]);
    });
  });
});
