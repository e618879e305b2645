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
});

describe('thin routes', () => {
  it('no api route queries the database itself (reads go through packages/core too)', () => {
    const routes = path.join(root, 'apps/api/src/routes');
    const found = scanQueries(routes).map((q) => `${path.relative(root, q.file)}:${q.line} ${q.write}`);
    expect(found).toEqual([]);
  });
});
