import { globSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readRepoFile, repoPath } from './repo.ts';

// Apps hold no domain rule (docs/decisions/0026-apps-hold-no-domain-rule.md): the api's routes and
// plugins and the worker map input, errors and transport; every table is read and written by
// packages/core (or the packages it builds on), and every refusal of a rule is a DomainError thrown
// there, which the api turns into a status at its edge (DOMAIN_STATUS). This scan reads the apps'
// production sources and fails on table access, on a DomainError made in an app, and on an HTTP
// refusal that states a rule (403, 404, 409) unless it is listed below as an edge concern.

const SCANNED = ['apps/api/src', 'apps/worker/src'];

interface Pattern {
  name: string;
  pattern: RegExp;
}

const PATTERNS: Pattern[] = [
  {
    name: 'table access',
    pattern: /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\s*\(/g,
  },
  { name: 'table access', pattern: /\bsql\s*(<[^>]*>)?\s*`/g },
  { name: 'table access', pattern: /\.(execute|executeTakeFirst|executeTakeFirstOrThrow)\s*\(/g },
  { name: 'table access', pattern: /\.transaction\s*\(\s*\)/g },
  { name: 'a query builder imported', pattern: /^import\s+(?!type\b)[^;]*from\s+'kysely'/gm },
  { name: 'a DomainError made in an app', pattern: /\bnew\s+DomainError\s*\(/g },
  { name: 'a refusal stated in an app', pattern: /\b(forbidden|notFound|conflict)\s*\(/g },
  { name: 'a refusal stated in an app', pattern: /\bnew\s+HttpError\s*\(\s*(403|404|409)\b/g },
];

/**
 * Refusals that are the edge's own, by file: each line matching one of `lines` is allowed, for the
 * reason given. Nothing else in the apps may refuse with 403, 404 or 409.
 */
const EDGE: Record<string, { lines: RegExp; reason: string }[]> = {
  'apps/api/src/errors.ts': [
    {
      lines: /^(export const (forbidden|notFound|conflict) = |new HttpError\(403, 'forbidden', message\);$)/,
      reason: 'the HTTP helpers themselves (used by the edge refusals below)',
    },
  ],
  'apps/api/src/plugins/security.ts': [
    {
      lines: /^throw new HttpError\($/,
      reason:
        'the cross-site checks of a state-changing request (Origin, Sec-Fetch-Site): transport, not a rule',
    },
  ],
  'apps/api/src/routes/objects/index.ts': [
    {
      lines: /notFound\('No such image\.'\)/,
      reason: 'serving the object store: a key that does not decode, or no such object in the store',
    },
  ],
  'apps/api/src/routes/citations/index.ts': [
    {
      lines: /HttpError\(403, 'invalid_signature'/,
      reason: 'the signature of a download link (an HMAC the edge issued and checks)',
    },
    {
      lines: /notFound\('This file is no longer available\.'\)/,
      reason: 'the object store no longer holds the file',
    },
  ],
  'apps/api/src/routes/messages/index.ts': [
    {
      lines: /notFound\('This file is no longer available\.'\)/,
      reason: 'the object store no longer holds the file',
    },
  ],
  'apps/api/src/routes/knowledge/index.ts': [
    {
      lines: /notFound\('The uploaded file was not found; upload it again\.'\)/,
      reason: 'the object store does not hold the upload (it expired or was never finished)',
    },
    {
      lines: /notFound\('This file is no longer available\.'\)/,
      reason: 'the object store no longer holds the file',
    },
  ],
  'apps/api/src/routes/uploads/index.ts': [
    {
      lines: /notFound\('This upload does not exist any more; start it again\.'\)/,
      reason: 'the object store’s NoSuchUpload answer, translated',
    },
    { lines: /new HttpError\($/, reason: 'the S3 STS call this server does not offer (404 not_supported)' },
  ],
  'apps/api/src/routes/billing/index.ts': [
    {
      lines: /notFound\('Stripe is not configured on this server\.'\)/,
      reason: 'server configuration: the Stripe webhook exists only where Stripe is configured',
    },
  ],
};

const isTest = (file: string) => /\.(test|spec)\.tsx?$/.test(file);

/** Every rule-like line of one source text, as `line: name: text`. */
export function findRules(text: string): { line: number; name: string; text: string }[] {
  const lines = text.split('\n');
  const found: { line: number; name: string; text: string }[] = [];
  for (const { name, pattern } of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const line = text.slice(0, match.index).split('\n').length;
      found.push({ line, name, text: lines[line - 1]!.trim() });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}

function scan(): string[] {
  const found: string[] = [];
  for (const dir of SCANNED) {
    for (const rel of globSync('**/*.{ts,tsx,mts}', { cwd: repoPath(dir) })) {
      if (isTest(rel)) continue;
      const file = `${dir}/${rel}`;
      const allowed = EDGE[file] ?? [];
      for (const hit of findRules(readRepoFile(file))) {
        if (allowed.some((a) => a.lines.test(hit.text))) continue;
        found.push(`${file}:${hit.line} ${hit.name}: ${hit.text}`);
      }
    }
  }
  return found;
}

describe('apps hold no domain rule', () => {
  it('the api and the worker read no table, make no DomainError and state no refusal of a rule', () => {
    expect(scan()).toEqual([]);
  });

  it('every edge refusal listed still exists (the list does not outlive the code)', () => {
    const stale: string[] = [];
    for (const [file, entries] of Object.entries(EDGE)) {
      const lines = readRepoFile(file)
        .split('\n')
        .map((l) => l.trim());
      for (const entry of entries) {
        if (!lines.some((l) => entry.lines.test(l))) stale.push(`${file}: ${entry.lines} (${entry.reason})`);
      }
    }
    expect(stale).toEqual([]);
  });

  // The forms the rules took in the api before they moved to packages/core; each must be caught.
  it.each([
    ['a creator looked up by name', "const row = await app.db.selectFrom('creators').select('id')"],
    ['raw SQL', 'await sql`analyze chunks`.execute(db.db);'],
    ['a typed raw query', 'const r = await sql<{ n: number }>`select 1`'],
    ['a query run', '      .executeTakeFirst();'],
    ['a transaction', 'await app.db.transaction().execute(async (trx) => {'],
    ['a query builder import', "import { sql } from 'kysely';"],
    ['a DomainError', "throw new DomainError('forbidden', 'forbidden', 'No.');"],
    ['fan access', 'if (!mayActAsFan(who, fan, "read")) throw forbidden(FAN_FORBIDDEN_MESSAGE);'],
    ['existence', "if (!chatbot) throw notFound('Create your chatbot first.');"],
    ['a limit', "throw conflict('You can keep at most 20 templates.', 'too_many_templates');"],
    ['a 409 by hand', "throw new HttpError(409, 'billing_disabled', 'Buying credits is switched off.');"],
    [
      'a 404 by hand',
      "throw new HttpError(404, 'no_conversation', 'This conversation has no messages yet.');",
    ],
  ])('catches %s', (_what, code) => {
    expect(findRules(code)).not.toEqual([]);
  });

  it.each([
    ['a type import', "import type { Kysely } from 'kysely';"],
    ['a core use case', 'const fan = await creatorsFan(app.db, creator.id, request.params.fanId);'],
    ['an input-shape refusal', "throw badRequest('Unknown field.', 'unknown_field');"],
    ['a rate limit', "throw new HttpError(429, 'rate_limited', message);"],
  ])('lets %s pass', (_what, code) => {
    expect(findRules(code)).toEqual([]);
  });

  it('the scanned folders exist', () => {
    for (const dir of SCANNED)
      expect(globSync('**/*.ts', { cwd: repoPath(dir) }).length, dir).toBeGreaterThan(0);
  });
});
