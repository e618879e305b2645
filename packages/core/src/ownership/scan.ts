import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One place that writes a table: where, and the words that do it. */
export interface TableWrite {
  file: string;
  line: number;
  write: string;
}

// Kysely's writing builders, and raw SQL's (in template literals or strings), upper or lower case.
const WRITES: RegExp[] = [
  /\.\s*(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\s*\(/g,
  /\b(insert\s+into|delete\s+from|merge\s+into|truncate\s+table)\s+["\w.]+/gi,
  /\bupdate\s+["\w.]+(\s+as\s+\w+)?\s+set\b/gi,
  /\bcopy\s+["\w.]+\s*(\([^)]*\))?\s+from\b/gi,
];

/** The table writes in one file's text, with their line numbers. */
export function findTableWrites(text: string, file = ''): TableWrite[] {
  const found: TableWrite[] = [];
  for (const pattern of WRITES) {
    for (const match of text.matchAll(pattern)) {
      const line = text.slice(0, match.index).split('\n').length;
      found.push({ file, line, write: match[0].replace(/\s+/g, ' ') });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}

/**
 * What is allowed to write tables outside packages/core: tests (a test may arrange a row its own
 * way), migrations (they shape the tables), benchmarks (bulk seeds), and build output. Shared test
 * code is not: packages/testkit is scanned like production code, so its seeders go through core.
 */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'migrations', 'test', 'tests', 'bench', 'e2e']);
const isTestFile = (name: string) => /\.(test|spec)\.tsx?$/.test(name);
const isSource = (name: string) => /\.(ts|tsx|mts|cts|js|mjs)$/.test(name) && !name.endsWith('.d.ts');

/** Every table write in the source files below `dir` (apps/ and packages/, say), skipping `owner`. */
export function scanTree(dir: string, owner: string): TableWrite[] {
  const found: TableWrite[] = [];
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (
          SKIPPED_DIRS.has(entry.name) ||
          entry.name.startsWith('.') ||
          path.resolve(full) === path.resolve(owner)
        )
          continue;
        walk(full);
      } else if (entry.isFile() && isSource(entry.name) && !isTestFile(entry.name)) {
        found.push(...findTableWrites(readFileSync(full, 'utf8'), full));
      }
    }
  };
  walk(dir);
  return found;
}

// Any query at all: Kysely's builders, transactions and raw SQL templates.
const QUERIES: RegExp[] = [
  /\.\s*(selectFrom|insertInto|updateTable|deleteFrom|transaction)\s*\(/g,
  /\bsql\s*(<[^>]*>)?\s*`/g,
];

/** Every query written in the source files below `dir` (tests aside): routes should have none. */
export function scanQueries(dir: string): TableWrite[] {
  const found: TableWrite[] = [];
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && isSource(entry.name) && !isTestFile(entry.name)) {
        const text = readFileSync(full, 'utf8');
        for (const pattern of QUERIES) {
          for (const match of text.matchAll(pattern)) {
            found.push({ file: full, line: text.slice(0, match.index).split('\n').length, write: match[0] });
          }
        }
      }
    }
  };
  walk(dir);
  return found;
}
