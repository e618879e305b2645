import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { SOURCE_CONDITION } from '../../../vitest.shared.ts';

// The loopback stand-ins for Google, S3 and Stripe (oauth2-mock-server, s3rver, the local Stripe)
// are for embedded defaults only: nothing the server imports up front reaches them; they load by
// dynamic import when no GOOGLE_CLIENT_ID / S3_ENDPOINT / STRIPE_SECRET_KEY is configured. The
// sign-in and Stripe ones never in production (production-start.test.ts; record 0070).

const STAND_INS = ['oauth2-mock-server', 's3rver', '@fanpilot/local-stripe'];
const entry = fileURLToPath(new URL('../src/server.ts', import.meta.url));

/** The packages src/server.ts reaches by static imports, and those it reaches only by dynamic import. */
async function importsOf(file: string) {
  const result = await build({
    entryPoints: [file],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    // The workspace packages' sources, as the tests read them.
    conditions: [SOURCE_CONDITION],
    // Our workspace code is followed; npm packages are where the walk stops.
    plugins: [
      {
        name: 'externals',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@fanpilot/') && !STAND_INS.includes(args.path)
              ? undefined
              : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  const statics = new Set<string>();
  const dynamics = new Set<string>();
  for (const input of Object.values(result.metafile.inputs)) {
    for (const imported of input.imports) {
      if (!imported.external) continue;
      (imported.kind === 'dynamic-import' ? dynamics : statics).add(imported.path);
    }
  }
  return { statics, dynamics };
}

describe('dev-only stand-ins', () => {
  it('are never imported up front by the server, only loaded on demand for embedded defaults', async () => {
    const { statics, dynamics } = await importsOf(entry);
    expect(STAND_INS.filter((name) => statics.has(name))).toEqual([]);
    expect(STAND_INS.filter((name) => dynamics.has(name))).toEqual(STAND_INS);
    // The walk did follow the server's imports (a sanity check that it can fail).
    expect(statics.has('fastify')).toBe(true);
  });
});

// What only a worker's jobs or the embedded database use (parsing files, resizing images, splitting
// text, calling a model or an embeddings API, PGlite) is loaded on first use too, so an api beside
// its workers on PostgreSQL does not hold it (issue 39: its memory at rest and with 10,000 streams).
const ON_FIRST_USE = [
  'pdf-parse',
  'mammoth',
  'word-extractor',
  'sharp',
  '@langchain/textsplitters',
  '@langchain/openai',
  '@electric-sql/pglite',
];

describe('heavy packages only some processes use', () => {
  it('are loaded on first use, not when the server starts', async () => {
    const { statics, dynamics } = await importsOf(entry);
    expect(ON_FIRST_USE.filter((name) => statics.has(name))).toEqual([]);
    expect(ON_FIRST_USE.filter((name) => !dynamics.has(name))).toEqual([]);
    expect([...statics].filter((name) => name.startsWith('@langchain/'))).toEqual([]);
  });
});
