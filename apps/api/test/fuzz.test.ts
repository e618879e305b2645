import { connect } from 'node:net';
import { type FakeOpenAI, startFakeOpenAI } from '@fanpilot/testkit';
import fc from 'fast-check';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FanBrowser,
  identity,
  json,
  onboard,
  PNG_1PX,
  startTestApp,
  type TestApp,
  uploadAs,
} from './helpers.ts';

/**
 * Hostile requests to every route the api registers (found as they are registered, so routes
 * added later are fuzzed too), signed out, as a signed-in creator with a chatbot and data, as a
 * fan with its fan cookie, and with broken cookies. Generation is fast-check's, from one seed
 * (FUZZ_SEED), so a run can be repeated exactly; FUZZ_REQUESTS sets the size, FUZZ_VERBOSE=1
 * prints the statuses per route (2: also valid requests refused). No answer may be a 5xx or fail
 * to come, and the api must still answer its health check at the end. Nothing leaves the machine:
 * web addresses are loopback ones (refused by the crawler), YouTube is a closed loopback port, the
 * model a local stand-in.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
/** Part of the requests sent over a raw TCP socket, so the raw request line reaches Node's parser. */
const RAW_SHARE = 0.06;
const CONCURRENCY = 8;
/** A request without an answer by then counts as a failure (the api hung on it). */
const ANSWER_WITHIN_MS = 15_000;

interface FuzzRoute {
  method: string;
  url: string;
  params: string[];
  query: string[];
  body: string[];
  /** The zod schema of each named field, for plausible values of fields this test does not know. */
  fields: Record<string, unknown>;
}

type Who = 'anon' | 'creator' | 'fan' | 'broken';

interface FuzzRequest {
  route: string;
  method: string;
  url: string;
  who: Who;
  headers: Record<string, string>;
  /** A large body is made when it is sent (so 10,000 requests do not sit in memory at once). */
  body: string | Buffer | (() => string) | undefined;
  raw: boolean;
  target: string;
}

/** The fields of a zod object schema (a route's params, query or body), when it is one. */
function shapeOf(schema: unknown): Record<string, unknown> {
  const s = schema as
    | { shape?: Record<string, unknown>; def?: { in?: unknown; innerType?: unknown } }
    | undefined;
  if (!s) return {};
  if (s.shape && typeof s.shape === 'object') return s.shape;
  if (s.def?.in) return shapeOf(s.def.in);
  if (s.def?.innerType) return shapeOf(s.def.innerType);
  return {};
}

interface ZodDefLike {
  type?: string;
  innerType?: unknown;
  in?: unknown;
  options?: unknown[];
  entries?: Record<string, unknown>;
  values?: unknown[];
  element?: unknown;
  shape?: Record<string, unknown>;
}

/**
 * A plausible value for a field the table below does not know (say, a setting added later), read
 * from its zod schema: a number for a number, the first choice of an enum, and so on.
 */
const ANY_TEXT = 'hello there';
function plausibleFor(schema: unknown, depth = 0): unknown {
  const z = schema as { def?: ZodDefLike; shape?: Record<string, unknown> } | undefined;
  const def = z?.def;
  if (!def || depth > 5) return ANY_TEXT;
  switch (def.type) {
    case 'number':
    case 'int':
      return 1;
    case 'bigint':
      return 1;
    case 'boolean':
      return true;
    case 'enum':
      return Object.values(def.entries ?? {})[0] ?? ANY_TEXT;
    case 'literal':
      return def.values?.[0] ?? ANY_TEXT;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(
        Object.entries(z?.shape ?? def.shape ?? {}).map(([k, v]) => [k, plausibleFor(v, depth + 1)]),
      );
    case 'record':
      return {};
    case 'union':
      return plausibleFor(def.options?.[0], depth + 1);
    case 'pipe':
      return plausibleFor(def.in, depth + 1);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
      return plausibleFor(def.innerType, depth + 1);
    default:
      return ANY_TEXT;
  }
}

function toFuzzRoutes(seen: RouteOptions[]): FuzzRoute[] {
  const out: FuzzRoute[] = [];
  for (const route of seen) {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const fromUrl = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
    const params = Object.keys(shapeOf(schema.params));
    const fields = { ...shapeOf(schema.params), ...shapeOf(schema.querystring), ...shapeOf(schema.body) };
    for (const method of methods) {
      out.push({
        method,
        url: route.url,
        params: params.length > 0 ? params : fromUrl,
        query: Object.keys(shapeOf(schema.querystring)),
        body: Object.keys(shapeOf(schema.body)),
        fields,
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Hostile values

const HOSTILE_STRINGS = [
  '\u0000',
  'a\u0000b',
  'alice\u0000',
  '\ud800',
  'x\udfff',
  '\udc00\ud800',
  '😀\ud83d',
  '',
  ' ',
  '\t\r\n',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  'uploads/../../etc/passwd',
  '%00',
  '%',
  '%zz',
  '%ED%A0%80',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'null',
  'undefined',
  'NaN',
  '0',
  '-1',
  '1e309',
  '99999999999999999999999999999999',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  "' OR 1=1 --",
  '"; DROP TABLE creators; --',
  '<script>alert(1)</script>',
  '$'.concat('{7*7}{{7*7}}'),
  '\u202eevil',
  'ＡＬＩＣＥ',
  'ǅ',
  'http://127.0.0.1:9/',
  'http://[::ffff:127.0.0.1]:9/x',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'https://www.youtube.com/watch?v=%00',
  'data:text/html;base64,PHNjcmlwdD4=',
  `uploads/${'a'.repeat(300)}`,
  `knowledge-uploads/${'b'.repeat(1100)}`,
];

/** Any UTF-16 code unit: NUL, controls and lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const surrogateOrNul = fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff');

/** `base` with a NUL or a lone surrogate put somewhere inside it. */
const spiked = (base: fc.Arbitrary<string>) =>
  fc
    .tuple(base, surrogateOrNul, fc.nat())
    .map(([s, bad, at]) => `${s.slice(0, at % (s.length + 1))}${bad}${s.slice(at % (s.length + 1))}`);

const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 3, arbitrary: fc.string({ unit: codeUnit, maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 3, arbitrary: spiked(fc.string({ maxLength: 20 })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(100, 101, 201, 256, 300, 1025, 5000, 70_000).map((n) => 'a'.repeat(n)),
  },
  { weight: 1, arbitrary: fc.constantFrom(300, 2000).map((n) => 'é'.repeat(n)) },
);

/** A JSON value of the wrong kind, or a hostile one. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileString },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      0,
      -1,
      1.5,
      2 ** 31,
      2 ** 53 + 1,
      -(2 ** 63),
      1e300,
      Number.MAX_VALUE,
      true,
      false,
      null,
    ),
  },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, hostileString, { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[['deep']]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],
      Array.from({ length: 3000 }, (_, i) => i),
      Array.from({ length: 500 }, () => 'hi'),
    ),
  },
);

// ---------------------------------------------------------------------------------------------
// Encoding

/** Percent-encodes every UTF-16 unit as UTF-8 (a lone surrogate as its 3-byte WTF-8 form). */
function pct(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    let cp = c;
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      cp = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
      i++;
    }
    if (cp < 0x80 && /[A-Za-z0-9_.~-]/.test(String.fromCharCode(cp))) {
      out += String.fromCharCode(cp);
      continue;
    }
    const bytes =
      cp < 0x80
        ? [cp]
        : cp < 0x800
          ? [0xc0 | (cp >> 6), 0x80 | (cp & 63)]
          : cp < 0x10000
            ? [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)]
            : [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
    out += bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

/** How a path or query value goes on the wire: encoded, raw, or with a broken %-escape. */
const encoding: fc.Arbitrary<string> = fc.constantFrom('pct', 'pct', 'pct', 'pct', 'raw', 'bad', 'double');
const BAD_ESCAPES = ['%', '%z', '%zz', '%E0%A4', '%ED%A0%80', '%C0%80', '%FF', '%25%30%30', '%%', '%u0000'];

function encodeAs(value: string, how: string, at: number): string {
  if (how === 'raw') return value;
  if (how === 'double') return pct(pct(value));
  if (how === 'bad') {
    const bad = BAD_ESCAPES[at % BAD_ESCAPES.length]!;
    const e = pct(value);
    const cut = at % (e.length + 1);
    return `${e.slice(0, cut)}${bad}${e.slice(cut)}`;
  }
  return pct(value);
}

// ---------------------------------------------------------------------------------------------
// Requests

interface Fixture {
  creator: string;
  otherCreator: string;
  chatbotId: string;
  knowledgeIds: string[];
  templateId: string;
  fileId: string;
  messageId: string;
  fanId: string;
  fanName: string;
  imageUrl: string;
  uploadKey: string;
  uploadId: string;
  creatorCookie: string;
  logoutCookie: string;
  fanCookie: string;
  /** The api's own origin, which a browser sends with every state-changing call. */
  origin: string;
}

/** Plausible values per field name, so that hostile values reach code behind the first checks. */
function validFor(name: string, f: Fixture, route?: FuzzRoute): fc.Arbitrary<unknown> {
  const url = route?.url ?? '';
  // The id a route's :id means, now and then another kind of id.
  const own = url.startsWith('/api/chatbots/')
    ? [f.chatbotId]
    : url.startsWith('/api/knowledge/')
      ? f.knowledgeIds
      : url.includes('/templates/')
        ? [f.templateId]
        : url.startsWith('/api/files/')
          ? [f.fileId]
          : [];
  const ids = [...own, ...own, ...own, f.chatbotId, ...f.knowledgeIds, f.templateId, f.fileId];
  const table: Record<string, fc.Arbitrary<unknown>> = {
    username: fc.constantFrom(
      f.creator,
      f.creator,
      f.creator,
      f.creator.toUpperCase(),
      f.otherCreator,
      'nobody',
    ),
    creator: fc.constantFrom(f.creator, f.creator, f.creator, f.otherCreator, 'nobody'),
    creatorUsername: fc.constantFrom(f.creator, f.otherCreator),
    fanId: fc.constantFrom(f.fanId, 'mobile_fan_0123456789abcdef0123456789abcdef', 'mobile_fan_x'),
    fanIdOrName: fc.constantFrom(f.fanId, f.fanName),
    id: fc.constantFrom(...ids),
    chatbotId: fc.constantFrom(f.chatbotId),
    messageId: fc.constantFrom(f.messageId, Number(f.messageId), '1'),
    uploadId: fc.constantFrom(f.uploadId, 'no-such-upload'),
    key: fc.constantFrom(f.uploadKey),
    partNumber: fc.constantFrom(1, 2, 10_000),
    url: fc.constantFrom('http://127.0.0.1:9/page', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'),
    youtubeUrl: fc.constantFrom(
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://youtu.be/dQw4w9WgXcQ',
    ),
    urls: fc.constantFrom(['http://127.0.0.1:9/a'], [], ['https://youtu.be/dQw4w9WgXcQ']),
    profileImageUrl: fc.constantFrom(f.imageUrl),
    profileImageURL: fc.constantFrom(f.imageUrl),
    filename: fc.constantFrom('notes.txt', 'a.pdf', 'image.png'),
    type: fc.constantFrom('text/plain', 'application/pdf', ''),
    temp: fc.constantFrom(0, 0.5, 1),
    initialMessages: fc.constantFrom(['Hi!'], []),
    attachment: fc.constant({ filename: 'a.png', contentBase64: PNG_1PX.toString('base64') }),
    limit: fc.constantFrom(1, 10, '20'),
    popup: fc.constantFrom('1', 'true'),
    parts: fc.constant([{ PartNumber: 1, ETag: '"abc"' }]),
    metadata: fc.constant({ name: 'notes.txt' }),
  };
  const known = table[name];
  if (known) return known;
  const plausible = plausibleFor(route?.fields[name]);
  return plausible === ANY_TEXT ? fc.constantFrom(ANY_TEXT, 'Hello!', 'A') : fc.constant(plausible);
}

const protoKeys = fc.constantFrom('__proto__', 'constructor', 'prototype', '__defineGetter__');

/** The JSON text of an object body: known fields valid or hostile (or left out), maybe odd extra keys. */
function objectBody(route: FuzzRoute, f: Fixture): fc.Arbitrary<string> {
  const fields = route.body;
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const field of fields) {
    record[field] = fc.oneof(
      { weight: 2, arbitrary: validFor(field, f, route) },
      { weight: 3, arbitrary: hostileValue },
    );
  }
  return fc
    .tuple(
      fc.record(record, { requiredKeys: [] }),
      fc.option(fc.tuple(fc.oneof(protoKeys, hostileString), hostileValue), { freq: 4 }),
      fc.boolean(),
    )
    .map(([obj, extra, protoInside]) => {
      let text = JSON.stringify(obj);
      if (extra) {
        const [key, value] = extra;
        const inner =
          protoInside && key === '__proto__' ? '{"polluted":true}' : JSON.stringify(value ?? null);
        text = `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}${JSON.stringify(key)}:${inner}}`;
      }
      return text;
    });
}

const RAW_BODIES: (string | (() => string))[] = [
  '{',
  '{"a":',
  'null',
  '[]',
  '"text"',
  '123',
  'true',
  '{"message":"\\u0000"}',
  '{"message":"\\ud800"}',
  '{"\\u0000":"x"}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":1,"a":2}',
  '{"n":1e999}',
  '\ufeff{"a":1}',
  '\u0000',
  '{"message":"hi"}\u0000',
  () => `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  () => `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`,
  () => `{"message":"${'x'.repeat(1_100_000)}"}`,
  () => `{"message":"${'\\u0000'.repeat(10_000)}"}`,
  () => JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]))),
];

const CONTENT_TYPES = [
  'application/json',
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/jsonx',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'application/octet-stream',
  'image/png',
  '*/*',
  'application/json; boundary=a',
  `application/${'x'.repeat(1000)}`,
];

/** A multipart body whose names and file name may break the rule. */
const multipartBody = fc
  .tuple(
    hostileString,
    hostileString,
    fc.constantFrom('notes.txt', 'notes.txt', 'a.pdf', '', '../../x.txt'),
    fc.constantFrom('field', 'name', 'truncate', 'none', 'none'),
  )
  .map(([junkField, filenameJunk, filename, spoil]) => {
    const boundary = 'fuzzBoundary123';
    const name = spoil === 'name' ? filenameJunk : filename;
    const field = spoil === 'field' ? junkField : 'note';
    const truncate = spoil === 'truncate';
    const text = [
      `--${boundary}`,
      `Content-Disposition: form-data; name="${field.replace(/["\r\n]/g, '')}"`,
      '',
      field,
      `--${boundary}`,
      `Content-Disposition: form-data; name="file"; filename="${name.replace(/["\r\n]/g, '')}"`,
      'Content-Type: text/plain',
      '',
      'Some notes about the creator.',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const body = Buffer.from(truncate ? text.slice(0, text.length / 2) : text, 'utf8');
    return { body, contentType: `multipart/form-data; boundary=${boundary}` };
  });

const BROKEN_COOKIES = [
  'fp_session=garbage',
  'fp_session=%00',
  'fp_session=%ED%A0%80; fp_fan=%00',
  'fp_fan=s:abc.def',
  'fp_fan=%zz',
  `fp_session=${'a'.repeat(4000)}`,
  '=;;;=;fp_session',
  'fp_session="quoted"',
  'fp_session=a; fp_session=b; fp_fan=c',
  '__proto__=x; constructor=y',
  'fp_session=\u00ff\u00fe',
];

/** Latin-1 header values only: anything else cannot be sent over HTTP. */
const headerSafe = (s: string) => s.replace(/[^\x20-\x7e\xa0-\xff]/g, '');

/**
 * One request to `route`. Most requests are valid but for one hostile element (a path parameter,
 * a query value, a body field, the body itself, a header, the cookies…), so the hostile value
 * gets past the other checks; a share are hostile everywhere at once.
 */
function requestArbitrary(route: FuzzRoute, f: Fixture): fc.Arbitrary<FuzzRequest> {
  const targets = [
    ...route.params.map((p) => `param:${p}`),
    ...(route.url.endsWith('*') ? ['wildcard', 'wildcard'] : []),
    ...route.query.map((q) => `query:${q}`),
    'queryExtra',
    ...(route.body.length > 0 && route.method !== 'GET' && route.method !== 'HEAD'
      ? [
          ...route.body.map((b) => `body:${b}`),
          ...route.body.map((b) => `body:${b}`),
          'bodyExtra',
          'rawBody',
          'contentType',
        ]
      : ['rawBody']),
    // A POST without a JSON body schema takes a form upload: mostly multipart then.
    ...(route.method === 'POST' && route.body.length === 0 ? ['multipart', 'multipart', 'multipart'] : []),
    'multipart',
    'method',
    'idempotency',
    'requestId',
    'origin',
    'cookie',
    'valid',
    'chaos',
    'chaos',
  ];
  const hostileParam: fc.Arbitrary<[string, string, number]> = fc.oneof(
    { weight: 4, arbitrary: fc.tuple(hostileString, fc.constant('pct'), fc.nat()) },
    { weight: 2, arbitrary: fc.tuple(hostileString, encoding, fc.nat()) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('alice', 'x'), fc.constant('bad'), fc.nat()) },
  );
  const params = fc.tuple(
    ...route.params.map((p) =>
      fc.record({ valid: validFor(p, f, route).map(String), hostile: hostileParam }),
    ),
  );
  const wildcard = fc.tuple(
    fc.oneof(
      fc.constantFrom(
        `uploads/${f.imageUrl.split('/uploads/')[1] ?? ''}`,
        'uploads/',
        `uploads/${'a'.repeat(300)}`,
        `uploads/${'a/'.repeat(600)}`,
        `uploads/${'é'.repeat(400)}`,
        `uploads/${'x'.repeat(1100)}`,
        'uploads/%00',
        'uploads/%2500',
        'uploads/..%2F..%2Fetc%2Fpasswd',
        'knowledge/x',
      ),
      hostileString.map((s) => `uploads/${s}`),
    ),
    encoding,
    fc.nat(),
  );
  const queryValid = fc.record(
    Object.fromEntries(route.query.map((q) => [q, validFor(q, f, route).map(String)])),
    { requiredKeys: [] },
  );
  const queryHostile = fc.tuple(
    fc.oneof(route.query.length > 0 ? fc.constantFrom(...route.query) : hostileString, hostileString),
    hostileString,
    encoding,
    fc.nat(),
    fc.boolean(),
  );
  const bodyValid = fc.record(Object.fromEntries(route.body.map((b) => [b, validFor(b, f, route)])));
  const rawBody = fc.constantFrom(...RAW_BODIES);
  const extraKey = fc.tuple(fc.oneof(protoKeys, hostileString), hostileValue, fc.boolean());
  return fc
    .record({
      target: fc.constantFrom(...targets),
      params,
      wildcard,
      queryValid,
      queryHostile,
      bodyValid,
      bodyField:
        route.body.length > 0
          ? fc.tuple(fc.constantFrom(...route.body), hostileValue, fc.nat(9))
          : fc.constant(null),
      chaosBody: objectBody(route, f),
      extraKey,
      rawBody,
      multipart: multipartBody,
      contentType: fc.constantFrom(...CONTENT_TYPES),
      who: fc.constantFrom<Who>('anon', 'creator', 'creator', 'creator', 'fan', 'fan', 'broken'),
      brokenCookie: fc.constantFrom(...BROKEN_COOKIES),
      otherMethod: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
      hostileHeader: hostileString,
      raw: fc.noBias(fc.integer({ min: 0, max: 999 })).map((x) => x < RAW_SHARE * 1000),
    })
    .map((g): FuzzRequest => {
      const chaos = g.target === 'chaos';
      let i = 0;
      let path = route.url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
        const p = g.params[i++];
        if (!p) return 'x';
        if (g.target === `param:${name}` || (chaos && p.hostile[2] % 2 === 0)) {
          const [value, how, at] = p.hostile;
          return encodeAs(value, how, at) || '%20';
        }
        return pct(p.valid);
      });
      if (path.endsWith('*')) {
        const [value, how, at] = g.wildcard;
        const hostile = g.target === 'wildcard' || chaos;
        const key = hostile ? value : `uploads/${f.imageUrl.split('/uploads/')[1] ?? ''}`;
        path =
          path.slice(0, -1) +
          (how === 'pct' || !hostile ? key.split('/').map(pct).join('/') : encodeAs(key, how, at));
      }

      const query: string[] = Object.entries(g.queryValid).map(([k, v]) => `${pct(k)}=${pct(String(v))}`);
      const [qk, qv, qhow, qat, qrepeat] = g.queryHostile;
      if (g.target.startsWith('query') || chaos) {
        const name = g.target.startsWith('query:') ? g.target.slice(6) : qk;
        const at = query.findIndex((part) => part.startsWith(`${pct(name)}=`));
        const part = `${encodeAs(name, g.target === 'queryExtra' || chaos ? qhow : 'pct', qat)}=${encodeAs(qv, qhow, qat)}`;
        if (at >= 0 && !qrepeat) query[at] = part;
        else query.push(part);
      }

      const method = g.target === 'method' || (chaos && g.raw) ? g.otherMethod : route.method;
      const headers: Record<string, string> = {};
      const cookie =
        g.target === 'cookie' || (chaos && g.who === 'broken')
          ? g.brokenCookie
          : g.who === 'creator'
            ? route.url === '/auth/logout'
              ? f.logoutCookie
              : `${f.creatorCookie}; ${f.fanCookie}`
            : g.who === 'fan'
              ? f.fanCookie
              : '';
      if (cookie) headers.cookie = cookie;

      let body: FuzzRequest['body'];
      let type = 'application/json';
      if (g.target === 'rawBody') body = g.rawBody;
      else if (g.target === 'multipart') {
        body = g.multipart.body;
        type = g.multipart.contentType;
      } else if (chaos) body = g.chaosBody;
      else if (route.body.length > 0) {
        const value: Record<string, unknown> = { ...g.bodyValid };
        if (g.target.startsWith('body:') && g.bodyField) {
          const [, hostile, drop] = g.bodyField;
          const field = g.target.slice(5);
          if (drop === 0) delete value[field];
          else value[field] = hostile;
        }
        body = JSON.stringify(value);
        if (g.target === 'bodyExtra') {
          const [key, extra, protoInside] = g.extraKey;
          const inner =
            protoInside && key === '__proto__' ? '{"polluted":true}' : JSON.stringify(extra ?? null);
          body = `${body.slice(0, -1)}${body.length > 2 ? ',' : ''}${JSON.stringify(key)}:${inner}}`;
        }
      }
      if (g.target === 'contentType' || (chaos && g.raw)) type = g.contentType;
      if (method === 'GET' || method === 'HEAD') body = undefined;
      if (body !== undefined) headers['content-type'] = type;
      if (g.target === 'idempotency' || chaos) headers['idempotency-key'] = headerSafe(g.hostileHeader);
      if (g.target === 'requestId') headers['x-request-id'] = headerSafe(g.hostileHeader) || 'x';
      // As a browser does on every state-changing call (a foreign or broken Origin now and then).
      if (g.target === 'origin' || chaos) headers.origin = headerSafe(g.hostileHeader) || 'null';
      else if (method !== 'GET' && method !== 'HEAD') headers.origin = f.origin;
      return {
        route: `${route.method} ${route.url}`,
        method,
        url: query.length > 0 ? `${path}?${query.join('&')}` : path,
        who: g.who,
        headers,
        body,
        raw: g.raw,
        target: g.target,
      };
    });
}

// ---------------------------------------------------------------------------------------------
// Sending

interface Answer {
  status: number;
  body: string;
}

const bodyOf = (r: FuzzRequest) => (typeof r.body === 'function' ? r.body() : r.body);
const shownBody = (r: FuzzRequest) =>
  typeof r.body === 'function' ? '(generated)' : String(r.body ?? '').slice(0, 160);

/** One request over a fresh TCP connection, the request line exactly as generated. */
function sendRaw(port: number, r: FuzzRequest): Promise<Answer> {
  return new Promise((resolve) => {
    const made = bodyOf(r);
    const body =
      made === undefined ? Buffer.alloc(0) : Buffer.isBuffer(made) ? made : Buffer.from(made, 'utf8');
    const lines = [`${r.method} ${r.url} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
    for (const [k, v] of Object.entries(r.headers)) lines.push(`${k}: ${v}`);
    if (body.length > 0) lines.push(`Content-Length: ${body.length}`);
    const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(Buffer.concat([head, body]));
    });
    socket.setTimeout(ANSWER_WITHIN_MS, () => socket.destroy());
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => {});
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4, 600) });
    });
  });
}

/**
 * An event stream (Server-Sent Events) never ends by itself: its answer is its status line and
 * headers, over a real connection that is then closed.
 */
function sendToStream(port: number, r: FuzzRequest): Promise<Answer> {
  return new Promise((resolve) => {
    const made = bodyOf(r);
    const body =
      made === undefined ? Buffer.alloc(0) : Buffer.isBuffer(made) ? made : Buffer.from(made, 'utf8');
    const lines = [`${r.method} ${r.url} HTTP/1.1`, 'Host: 127.0.0.1'];
    for (const [k, v] of Object.entries(r.headers)) {
      if (k.toLowerCase() !== 'content-length') lines.push(`${k}: ${v}`);
    }
    if (body.length > 0) lines.push(`Content-Length: ${body.length}`);
    let text = '';
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4, 600) });
    };
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body])),
    );
    socket.setTimeout(ANSWER_WITHIN_MS, finish);
    socket.on('data', (c) => {
      text += c.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      // A stream's headers, or a whole error answer (its body is short and comes with them).
      if (end >= 0 && (text.includes('text/event-stream') || text.length > end + 4)) finish();
    });
    socket.on('error', finish);
    socket.on('close', finish);
  });
}

/** In-process (app.inject), or raw; -1 when the request could not even be built on our side. */
async function send(t: TestApp, port: number, r: FuzzRequest): Promise<Answer> {
  if (r.route.includes(' /api/events/') && r.method === 'GET') return sendToStream(port, r);
  if (r.raw) return sendRaw(port, r);
  try {
    let timer: NodeJS.Timeout | undefined;
    const res = await Promise.race([
      t.app.inject({
        method: r.method as 'GET',
        url: r.url,
        headers: r.headers,
        ...(r.body === undefined ? {} : { payload: bodyOf(r) }),
      }),
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), ANSWER_WITHIN_MS);
      }),
    ]);
    clearTimeout(timer);
    // No answer in time is a failure like a 5xx (status 0).
    if (!res) return { status: 0, body: `no answer within ${ANSWER_WITHIN_MS} ms` };
    return { status: res.statusCode, body: res.body.slice(0, 400) };
  } catch (err) {
    return { status: -1, body: String(err) };
  }
}

// ---------------------------------------------------------------------------------------------

describe('fuzz: hostile input to every route', () => {
  let t: TestApp;
  let openai: FakeOpenAI;
  let fixture: Fixture;
  const registered: RouteOptions[] = [];

  beforeAll(async () => {
    openai = await startFakeOpenAI();
    t = await startTestApp({
      ingestInProcess: true,
      onRoute: (route) => registered.push(route),
      env: {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: openai.baseUrl,
        // Nothing leaves the machine: YouTube is a closed loopback port, pages are loopback (refused).
        INGEST_YOUTUBE_ORIGIN: 'http://127.0.0.1:9',
        INGEST_FETCH_TIMEOUT_MS: '500',
        ASK_RATE_LIMIT_PER_IP: '1000000',
      },
    });
    const creatorCookie = await onboard(t, 'alice');
    await onboard(t, 'bruno');
    const logoutCookie = await t.signIn(identity('carol'));
    t.oidc.setIdentity(identity('alice'));

    const call = async (method: string, path: string, body?: unknown, cookie = creatorCookie) => {
      const res = await t.app.inject({
        method: method as 'GET',
        url: path,
        headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
      if (res.statusCode !== 200) throw new Error(`${method} ${path}: ${res.statusCode} ${res.body}`);
      return res.json() as Record<string, unknown>;
    };
    const bot = (await call('GET', '/api/creators/username/alice/chatbot')) as { id: string };
    const template = (await call('POST', '/api/creators/username/alice/templates', {
      title: 'Thanks',
      content: 'Thank you!',
    })) as { id: string };
    await call('POST', '/api/creators/username/alice/set-notice', { message: 'Back on Monday' });
    const web = (await call('POST', '/api/add-knowledge', {
      chatbotId: bot.id,
      url: 'http://127.0.0.1:9/a',
    })) as {
      id: string;
    };
    const form = new FormData();
    form.append('file', new Blob(['Alice coaches runners. She answers on weekdays.']), 'notes.txt');
    const upload = await fetch(`${t.url}/api/chatbots/${bot.id}/knowledge/upload`, {
      method: 'POST',
      headers: { cookie: creatorCookie },
      body: form,
    });
    if (upload.status !== 200) throw new Error(`upload: ${upload.status} ${await upload.text()}`);
    const file = (await json(upload)) as { id: string };
    const params = (await call('GET', '/api/s3/params?filename=notes.txt&type=text/plain')) as {
      fields: Record<string, string>;
    };
    const multipart = (await call('POST', '/api/s3/multipart', {
      filename: 'big.pdf',
      type: 'application/pdf',
    })) as {
      uploadId: string;
    };
    const imageUrl = new URL(await uploadAs(t, creatorCookie, PNG_1PX)).pathname.replace(
      /^\/[^/]+\//,
      '/objects/',
    );

    const fan = new FanBrowser(t);
    const asked = await fan.ask('alice', 'Hello, how do I start running?', {
      fanName: 'Runner',
      attachment: { filename: 'a.png', contentBase64: PNG_1PX.toString('base64') },
    });
    if (asked.status !== 200) throw new Error(`ask: ${asked.status} ${await asked.text()}`);
    const { message } = (await asked.json()) as {
      message: { id: string; fileAttachment: { id: string } | null };
    };
    fixture = {
      creator: 'alice',
      otherCreator: 'bruno',
      chatbotId: bot.id,
      knowledgeIds: [web.id, file.id],
      templateId: template.id,
      fileId: message.fileAttachment?.id ?? '00000000-0000-0000-0000-000000000000',
      messageId: message.id,
      fanId: fan.fanId,
      fanName: 'Runner',
      imageUrl,
      uploadKey: params.fields.key ?? params.fields.Key ?? '',
      uploadId: multipart.uploadId,
      creatorCookie,
      logoutCookie,
      fanCookie: fan.cookie,
      origin: t.url,
    };
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await openai?.close();
  });

  it(`answers ${REQUESTS} hostile requests without one 5xx, and stays up`, async () => {
    const routes = toFuzzRoutes(registered);
    expect(routes.length).toBeGreaterThan(40);
    const perRoute = Math.ceil(REQUESTS / routes.length);
    // Routes go in groups (generated when their turn comes, so memory stays small); within a group
    // their requests are shuffled together, so routes interleave and no slow route runs alone.
    const GROUP = 8;
    const groupRequests = (from: number): FuzzRequest[] => {
      const requests: FuzzRequest[] = [];
      routes.slice(from, from + GROUP).forEach((route, i) => {
        requests.push(
          ...fc.sample(requestArbitrary(route, fixture), { seed: SEED + from + i, numRuns: perRoute }),
        );
      });
      return fc.sample(fc.shuffledSubarray(requests, { minLength: requests.length }), {
        seed: SEED + from,
        numRuns: 1,
      })[0]!;
    };

    const port = Number(new URL(t.url).port);
    const byClass: Record<string, number> = {};
    const byWho: Record<string, number> = {};
    const failures: { request: FuzzRequest; answer: Answer }[] = [];
    const perRouteStatus: Record<string, Record<number, number>> = {};
    let raw = 0;
    let sent = 0;
    let next = 0;
    let order: FuzzRequest[] = [];
    const started = Date.now();
    const worker = async () => {
      while (next < order.length) {
        const r = order[next++]!;
        sent++;
        if (r.raw) raw++;
        const answer = await send(t, port, r);
        const cls =
          answer.status === 0
            ? 'no answer'
            : answer.status < 0
              ? 'unsendable'
              : `${Math.floor(answer.status / 100)}xx`;
        byClass[cls] = (byClass[cls] ?? 0) + 1;
        byWho[r.who] = (byWho[r.who] ?? 0) + 1;
        if (answer.status >= 500 || answer.status === 0) failures.push({ request: r, answer });
        if (
          process.env.FUZZ_VERBOSE === '2' &&
          r.target === 'valid' &&
          answer.status >= 400 &&
          answer.status !== 401
        )
          console.log(
            `valid ${r.route} ${r.who} ${r.url.slice(0, 100)} ${JSON.stringify(shownBody(r))} -> ${answer.status} ${answer.body.slice(0, 200)}`,
          );
        const seen = perRouteStatus[r.route] ?? {};
        perRouteStatus[r.route] = seen;
        seen[answer.status] = (seen[answer.status] ?? 0) + 1;
      }
    };
    for (let from = 0; from < routes.length; from += GROUP) {
      order = groupRequests(from);
      next = 0;
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    }
    if (process.env.FUZZ_VERBOSE) {
      (globalThis as { gc?: () => void }).gc?.();
      const m = process.memoryUsage();
      console.log(`rss ${Math.round(m.rss / 1e6)} MB, heap used ${Math.round(m.heapUsed / 1e6)} MB`);
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);

    console.log(
      `fuzz: seed ${SEED}, ${sent} requests (${raw} over raw HTTP) to ${routes.length} routes in ${seconds} s; ` +
        `by status ${JSON.stringify(byClass)}; by identity ${JSON.stringify(byWho)}`,
    );
    if (process.env.FUZZ_VERBOSE) {
      for (const [route, statuses] of Object.entries(perRouteStatus))
        console.log(`  ${route}: ${JSON.stringify(statuses)}`);
    }
    if (failures.length > 0) {
      const byRoute: Record<string, number> = {};
      for (const { request, answer } of failures) {
        const k = `${answer.status || 'no answer'} ${request.route}`;
        byRoute[k] = (byRoute[k] ?? 0) + 1;
      }
      console.log(`failures by route: ${JSON.stringify(byRoute)}`);
    }
    for (const { request, answer } of failures.slice(0, 40)) {
      console.log(
        `  ${answer.status} ${request.route} <- ${request.method} ${request.url.slice(0, 160)} [${request.who}${request.raw ? ', raw' : ''}] ` +
          `${JSON.stringify(request.headers['content-type'] ?? '')} body ${JSON.stringify(shownBody(request))} -> ${answer.body.slice(0, 200)}`,
      );
    }

    // Still up: the health check answers, in-process and over HTTP.
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    expect(sent).toBeGreaterThanOrEqual(REQUESTS);
    expect(
      failures.map((f) => `${f.answer.status} ${f.request.method} ${f.request.url.slice(0, 120)}`),
    ).toEqual([]);
  }, 300_000);
});
