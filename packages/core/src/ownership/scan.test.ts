import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findTableWrites, scanQueries, scanTree } from './scan.ts';

describe('findTableWrites', () => {
  it.each([
    ["await db.insertInto('messages').values(row).execute();", 'insertInto'],
    ["db\n  .updateTable('knowledge_items')\n  .set({ status })", 'updateTable'],
    ["trx.deleteFrom('push_subscriptions')", 'deleteFrom'],
    ["db.replaceInto('x')", 'replaceInto'],
    ["db.mergeInto('x')", 'mergeInto'],
    ['sql`insert into chunks (a) values (1)`', 'insert into chunks'],
    ['sql`INSERT INTO "fans" (a) VALUES (1)`', 'INSERT INTO "fans"'],
    ['sql`delete from chunks where id = $1`', 'delete from chunks'],
    ['sql`\n  update knowledge_items\n  set status = 1`', 'update knowledge_items set'],
    ['sql`UPDATE messages AS m SET body = 1`', 'UPDATE messages AS m SET'],
    ["client.query('truncate table fans')", 'truncate table fans'],
  ])('finds %s', (text, write) => {
    const found = findTableWrites(text);
    expect(found).toHaveLength(1);
    expect(found[0]!.write).toContain(write.split('\n')[0]!);
  });

  it('gives the line of each write', () => {
    const text = "const a = 1;\n\nawait db.insertInto('fans').values(v);\nsql`delete from fans`;";
    expect(findTableWrites(text).map((w) => w.line)).toEqual([3, 4]);
  });

  it('leaves reads and prose alone', () => {
    const text = [
      "db.selectFrom('messages').selectAll()",
      'sql`select * from chunks where id = 1`',
      "const label = 'Delete conversation with Pat';",
      '// the update of the counters happens in a trigger',
      "new Set(['a']).delete('a');",
    ].join('\n');
    expect(findTableWrites(text)).toEqual([]);
  });
});

describe('scanTree', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reports writes outside the owner and skips tests, migrations and the owner itself', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'fp-ownership-'));
    const put = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    };
    put('apps/api/src/routes/x.ts', "\nawait app.db.deleteFrom('fans').execute();");
    put('apps/api/src/routes/x.test.ts', "await db.deleteFrom('fans').execute();");
    put('apps/api/test/helpers.ts', "await db.insertInto('fans').values(v).execute();");
    put('packages/db/src/migrations/001.ts', 'sql`insert into fans default values`');
    put('packages/core/src/fans.ts', "db.insertInto('fans')");
    const found = scanTree(dir, path.join(dir, 'packages/core'));
    expect(found).toEqual([
      { file: path.join(dir, 'apps/api/src/routes/x.ts'), line: 2, write: '.deleteFrom(' },
    ]);
  });
});

describe('scanQueries', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('finds reads, transactions and raw SQL, and leaves other code alone', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'fp-queries-'));
    writeFileSync(
      path.join(dir, 'route.ts'),
      [
        "const a = await app.db.selectFrom('fans').selectAll();",
        'await db.transaction().execute(f);',
        'sql`select 1`;',
        'core.read(x);',
      ].join('\n'),
    );
    expect(scanQueries(dir).map((q) => q.line)).toEqual([1, 2, 3]);
  });
});
