import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scanQueries, scanTree } from './ownership/scan.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const core = path.join(root, 'packages/core');

describe('one owner for every table', () => {
  it.each(['apps', 'packages'])('no source file under %s/ writes a table outside packages/core', (dir) => {
    const writes = scanTree(path.join(root, dir), core).map(
      (w) => `${path.relative(root, w.file)}:${w.line} ${w.write}`,
    );
    expect(writes).toEqual([]);
  });

  it('shared test code is scanned: a write in a testing/ folder or in packages/testkit is found', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fp-scan-'));
    try {
      for (const folder of ['knowledge/src/testing', 'testkit/src']) {
        mkdirSync(path.join(dir, folder), { recursive: true });
        writeFileSync(
          path.join(dir, folder, 'seed.ts'),
          "await db.insertInto('fans').values(row).execute();\n",
        );
      }
      const found = scanTree(dir, path.join(dir, 'core')).map((w) => path.relative(dir, w.file));
      expect(found.sort()).toEqual(['knowledge/src/testing/seed.ts', 'testkit/src/seed.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('thin routes', () => {
  it('no api route queries the database itself (reads go through packages/core too)', () => {
    const routes = path.join(root, 'apps/api/src/routes');
    const found = scanQueries(routes).map((q) => `${path.relative(root, q.file)}:${q.line} ${q.write}`);
    expect(found).toEqual([]);
  });
});
