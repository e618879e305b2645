// Measures the api's route handlers (issue 35, "thin routes"): lines per handler, refusals made in
// apps/api, repository calls in apps/api. Usage: node scripts/route-sizes.mjs [top=15] [checkout]
import { globSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = process.argv[3] ?? new URL('..', import.meta.url).pathname;
const ts = createRequire(join(root, 'apps/api/package.json'))('typescript');
const top = Number(process.argv[2] ?? 15);
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'route', 'all']);

const handlers = [];
for (const rel of globSync('apps/api/src/routes/**/*.ts', { cwd: root })) {
  if (/\.test\.ts$/.test(rel)) continue;
  const text = readFileSync(join(root, rel), 'utf8');
  const src = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      METHODS.has(node.expression.name.text)
    ) {
      const fn = node.arguments.at(-1);
      if (fn && (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn))) {
        const start = src.getLineAndCharacterOfPosition(fn.getStart()).line;
        const end = src.getLineAndCharacterOfPosition(fn.getEnd()).line;
        const path = node.arguments[0]?.getText(src) ?? '?';
        handlers.push({
          file: rel.replace('apps/api/src/routes/', ''),
          path,
          method: node.expression.name.text,
          lines: end - start + 1,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
}
handlers.sort((a, b) => b.lines - a.lines);
console.log(`handlers: ${handlers.length}, lines in all: ${handlers.reduce((n, h) => n + h.lines, 0)}`);
for (const h of handlers.slice(0, top))
  console.log(`${String(h.lines).padStart(4)}  ${h.method.toUpperCase()} ${h.path}  (${h.file})`);

const apiFiles = globSync('apps/api/src/**/*.ts', { cwd: root }).filter((f) => !/\.test\.ts$/.test(f));
let refusals = 0;
let repoCalls = 0;
const repoFiles = new Set();
for (const rel of apiFiles) {
  const text = readFileSync(join(root, rel), 'utf8');
  refusals += (
    text.match(/\b(badRequest|forbidden|notFound|conflict|unauthorized|tooLarge)\(|new HttpError\(/g) ?? []
  ).length;
  const n = (text.match(/\b\w+Repository\(/g) ?? []).length;
  repoCalls += n;
  if (n) repoFiles.add(rel);
}
console.log(`refusals made in apps/api (helper calls and new HttpError): ${refusals}`);
console.log(`repository calls in apps/api: ${repoCalls} in ${repoFiles.size} files`);
