import { globSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readRepoFile, repoPath } from './repo.ts';

// Apps hold no domain rule (docs/decisions/0026-apps-hold-no-domain-rule.md): the api's routes and
// plugins and the worker map input, errors and transport; every table is read and written by
// packages/core (or the packages it builds on), and every refusal of a rule is a DomainError thrown
// there, which the api turns into a status at its edge (DOMAIN_STATUS). This scan reads the apps'
// production sources and fails on table access, on a DomainError made in an app, and on any 4xx
// refusal built in an app (every status: 400, 401, 403, 404, 409, 410, 413, 415, 416, ...) unless it
// is listed below as an edge concern (transport, the framework's validation, sign-in, the object
// store). A rate limit (429) and an upstream failure (5xx) are not refusals of a rule and pass
// (issue 35: refusals are core's, from the closed union of error codes in contracts).

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
  {
    name: 'a refusal stated in an app',
    pattern: /\b(badRequest|unauthorized|forbidden|notFound|conflict)\s*\(/g,
  },
  // Any status but a rate limit (429) or an upstream failure (5xx), on one line or several.
  { name: 'a refusal stated in an app', pattern: /\bnew\s+HttpError\s*\((?!\s*(429|5\d\d)\b)/g },
];

/**
 * Refusals that are the edge's own, by file: each line matching one of `lines` is allowed, for the
 * reason given. Nothing else in the apps may refuse with 403, 404 or 409.
 */
const EDGE: Record<string, { lines: RegExp; reason: string }[]> = {
  'apps/api/src/errors.ts': [
    {
      lines: /^new HttpError\((400|401|403|404|409), (code|'[a-z_]+'), message\)/,
      reason: 'the HTTP helpers themselves (used by the edge refusals below)',
    },
  ],
  'apps/api/src/plugins/session.ts': [
    { lines: /^unauthorized\(\)/, reason: 'sign-in: no session (the auth layer)' },
  ],
  'apps/api/src/routes/events/index.ts': [
    { lines: /^unauthorized\(\)/, reason: 'sign-in: a live stream whose session ended (the auth layer)' },
  ],
  'apps/api/src/plugins/clean-input.ts': [
    {
      lines:
        /^new HttpError\(( 400, 'invalid_text'| 400, 'too_deep'|400, 'invalid_url'| 414, 'uri_too_long')/,
      reason: 'the framework-level check of every input (text that is not clean, nesting, a bad address)',
    },
  ],
  'apps/api/src/plugins/security.ts': [
    {
      lines: /^new HttpError\( 403, 'bad_origin'/,
      reason:
        'the cross-site checks of a state-changing request (Origin, Sec-Fetch-Site): transport, not a rule',
    },
  ],
  'apps/api/src/services/push.ts': [
    {
      lines: /^badRequest\( 'The push subscription endpoint is not a public push service address\.'/,
      reason: 'the DNS answer for a push endpoint (the network, checked where the connection is made)',
    },
  ],
  'apps/api/src/services/images.ts': [
    {
      lines:
        /^badRequest\(('Invalid upload URL format'|'The uploaded image was not found|`The image is larger than|'The profile image must be a PNG)/,
      reason: 'the profile image read back from the object store: its key, presence, size and bytes',
    },
  ],
  'apps/api/src/routes/objects/index.ts': [
    { lines: /^badRequest\(IMAGE_SIZE_MESSAGE, 'invalid_image_size'\)/, reason: 'the query of an image URL' },
    {
      lines: /^notFound\('No such image\.'\)/,
      reason: 'serving the object store: a key that does not decode, or no such object in the store',
    },
  ],
  'apps/api/src/routes/citations/index.ts': [
    {
      lines: /^new HttpError\((403, 'invalid_signature'|410, 'link_revoked'|410, 'link_expired')/,
      reason: 'the signature and lifetime of a download link (an HMAC the edge issued and checks)',
    },
    { lines: /^new HttpError\(416, 'range_not_satisfiable'/, reason: 'an HTTP Range header' },
    {
      lines: /^notFound\('This file is no longer available\.'\)/,
      reason: 'the object store no longer holds the file',
    },
  ],
  'apps/api/src/routes/messages/index.ts': [
    {
      lines: /^notFound\('This file is no longer available\.'\)/,
      reason: 'the object store no longer holds the file',
    },
  ],
  'apps/api/src/routes/knowledge/index.ts': [
    {
      lines: /^new HttpError\( 415, 'unsupported_media_type'/,
      reason: 'the request is not multipart/form-data (transport)',
    },
    {
      lines:
        /^badRequest\(('The upload could not be read\. Please try again\.', 'invalid_upload'|'Choose a file to upload \(form field "file"\)\.', 'no_file')\)/,
      reason: 'reading the multipart body (transport)',
    },
    {
      lines: /^notFound\('The uploaded file was not found; upload it again\.'\)/,
      reason: 'the object store does not hold the upload (it expired or was never finished)',
    },
    {
      lines: /^notFound\('This file is no longer available\.'\)/,
      reason: 'the object store no longer holds the file',
    },
  ],
  'apps/api/src/routes/uploads/index.ts': [
    {
      lines: /^notFound\('This upload does not exist any more; start it again\.'\)/,
      reason: 'the object store’s NoSuchUpload answer, translated',
    },
    {
      lines: /^badRequest\( 'The uploaded parts do not match/,
      reason: 'the object store’s InvalidPart answer, translated',
    },
    {
      lines: /^badRequest\('A part is listed twice\.', 'invalid_parts'\)/,
      reason: 'the S3 protocol’s part list',
    },
    { lines: /^new HttpError\( 404, 'not_supported'/, reason: 'the S3 STS call this server does not offer' },
  ],
  'apps/api/src/routes/billing/index.ts': [
    {
      lines: /^notFound\('Stripe is not configured on this server\.'\)/,
      reason: 'server configuration: the Stripe webhook exists only where Stripe is configured',
    },
    {
      lines:
        /^badRequest\(('A Stripe-Signature header and a body are required\.'|'The webhook signature does not match\.'), 'bad_signature'\)/,
      reason: 'the webhook’s signature (transport authentication)',
    },
  ],
};

const isTest = (file: string) => /\.(test|spec)\.tsx?$/.test(file);

/** Source text from `at` on, whitespace collapsed: a call spread over several lines reads as one. */
const callAt = (text: string, at: number) => text.slice(at, at + 400).replace(/\s+/g, ' ');

/**
 * Every rule-like line of one source text, as `line: name: text`; `call` is the matched call from
 * its name on, whitespace collapsed (what the edge list is matched against).
 */
export function findRules(text: string): { line: number; name: string; text: string; call: string }[] {
  const lines = text.split('\n');
  const found: { line: number; name: string; text: string; call: string }[] = [];
  for (const { name, pattern } of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const line = text.slice(0, match.index).split('\n').length;
      const at = match.index + match[0].search(/\S/);
      found.push({ line, name, text: lines[line - 1]!.trim(), call: callAt(text, at) });
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
        if (allowed.some((a) => a.lines.test(hit.call))) continue;
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
      const calls = findRules(readRepoFile(file)).map((hit) => hit.call);
      for (const entry of entries) {
        if (!calls.some((c) => entry.lines.test(c))) stale.push(`${file}: ${entry.lines} (${entry.reason})`);
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
    // Every status, not only 403/404/409 (issue 35): the forms the knowledge rules took in the api.
    ['a 400 helper', "throw badRequest('The file has no name.', 'no_file');"],
    [
      'a 413 by hand',
      "new HttpError(\n    413,\n    'file_too_large',\n    `The file is larger than 10 MB.`,\n  );",
    ],
    ['a 401 helper', 'if (!creator) throw unauthorized();'],
    ['a 410 by hand', "throw new HttpError(410, 'restore_expired', 'This link has expired.');"],
  ])('catches %s', (_what, code) => {
    expect(findRules(code)).not.toEqual([]);
  });

  it.each([
    ['a type import', "import type { Kysely } from 'kysely';"],
    ['a core use case', 'const fan = await creatorsFan(app.db, creator.id, request.params.fanId);'],
    ['a rate limit', "throw new HttpError(429, 'rate_limited', message);"],
    [
      'an upstream failure',
      "throw new HttpError(\n  502,\n  'model_unavailable',\n  'The AI did not answer.',\n);",
    ],
  ])('lets %s pass', (_what, code) => {
    expect(findRules(code)).toEqual([]);
  });

  it('the scanned folders exist', () => {
    for (const dir of SCANNED)
      expect(globSync('**/*.ts', { cwd: repoPath(dir) }).length, dir).toBeGreaterThan(0);
  });
});

// Core's index names what it exports (issue 35, record 0085): use cases and the types apps need. A
// star export would hand the apps every repository and table helper again, so it fails here.
const STAR_EXPORT = /^\s*export\s+(type\s+)?\*(\s+as\s+\w+)?\s+from\s/m;

describe("core's index names its exports", () => {
  it('packages/core/src/index.ts has no `export *`', () => {
    const index = readRepoFile('packages/core/src/index.ts');
    expect(index.split('\n').filter((line) => STAR_EXPORT.test(line))).toEqual([]);
    expect(index).toMatch(/^export \{[^}]+\} from '\.\/[\w/-]+\.ts';$/m);
  });

  it.each([
    ["export * from './billing.ts';"],
    ["export type * from './billing.ts';"],
    ["export * as billing from './billing.ts';"],
  ])('catches %s', (line) => {
    expect(STAR_EXPORT.test(line)).toBe(true);
  });

  it('lets a named export pass', () => {
    expect(STAR_EXPORT.test("export { buyCredits, type CreditPack } from './billing.ts';")).toBe(false);
  });
});
