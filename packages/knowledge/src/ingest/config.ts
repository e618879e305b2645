import { SITE_MAX_PAGES } from '@fanpilot/contracts';
import { z } from 'zod';

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const int = (def: number, min: number, max: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(min).max(max).default(def));

/**
 * Environment of the ingest pipeline, shared by the api (in-process jobs) and apps/worker.
 * Every limit has a default; docs/knowledge.md lists them.
 */
export const ingestEnvSchema = z.object({
  /** Host names (not addresses) that may resolve to private, loopback or link-local addresses. */
  INGEST_ALLOWED_PRIVATE_HOSTS: z.preprocess(
    (v) => (v === undefined || v === null ? '' : v),
    z.union([
      z.array(z.string()),
      z.string().transform((v) =>
        v
          .split(',')
          .map((h) => h.trim().toLowerCase())
          .filter(Boolean),
      ),
    ]),
  ),
  /** Whole-request budget for one web page (connect, redirects, body). */
  INGEST_FETCH_TIMEOUT_MS: int(15_000, 100, 300_000),
  /** Largest web page body (after decompression). */
  INGEST_MAX_PAGE_BYTES: int(5 * 1024 * 1024, 1024, 100 * 1024 * 1024),
  INGEST_MAX_REDIRECTS: int(5, 0, 20),
  /**
   * Pages "Add a website" reads at most: the address given, then the pages of the same site it links
   * to (breadth first), as robots.txt allows. 1 reads the address only. The dashboard says the limit.
   */
  INGEST_SITE_MAX_PAGES: int(SITE_MAX_PAGES, 1, 200),
  /** Pages a sitemap brings in at most. */
  INGEST_SITEMAP_MAX_PAGES: int(50, 1, 1000),
  /** Budget for parsing one file or page in a parser thread. */
  INGEST_PARSE_TIMEOUT_MS: int(60_000, 100, 600_000),
  /**
   * Memory of a parser thread (its heap and the buffers it holds); a file that needs more (a
   * decompression bomb, a document too big to read) fails its item with a reason, not the process.
   */
  INGEST_PARSER_MEMORY_MB: int(256, 32, 4096),
  /** Parser threads (the worker defaults them to one per core, at most its job concurrency). */
  INGEST_PARSER_THREADS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(32).optional()),
  /** After this long in processing, the sweeper re-queues (or fails) an item. */
  INGEST_STUCK_AFTER_MS: int(10 * 60_000, 1_000, 24 * 60 * 60_000),
  /** Where YouTube is reached (tests point it at a loopback stand-in). */
  INGEST_YOUTUBE_ORIGIN: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .url()
      .transform((v) => new URL(v).origin)
      .default('https://www.youtube.com'),
  ),
  /** How often the sweeper looks for stuck items. */
  INGEST_SWEEP_INTERVAL_MS: int(60_000, 500, 24 * 60 * 60_000),
  /**
   * Testing aid: "name=address,name=address" answers DNS for those names (the address policy still
   * applies to the answer). Lets tests show a name resolving to a private address being refused.
   */
  INGEST_DNS_OVERRIDES: z.preprocess(
    (v) => (v === undefined || v === null ? '' : v),
    z.string().transform((v, ctx) => {
      const map: Record<string, string> = {};
      for (const pair of v
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)) {
        const [name, address] = pair.split('=').map((x) => x?.trim());
        if (!name || !address) {
          ctx.addIssue({ code: 'custom', message: `expected name=address, got "${pair}"` });
          return z.NEVER;
        }
        map[name.toLowerCase()] = address;
      }
      return map;
    }),
  ),
  INGEST_CHUNK_SIZE: int(1000, 200, 8000),
  INGEST_CHUNK_OVERLAP: int(150, 0, 2000),
  OPENAI_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  OPENAI_BASE_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  EMBEDDING_MODEL: z.preprocess(emptyToUndefined, z.string().default('text-embedding-3-small')),
  /**
   * `auto` (the OpenAI-compatible API when OPENAI_API_KEY is set, else the local sentence encoder),
   * `api`, `local` or `off` (full-text search only). docs/knowledge.md.
   */
  EMBEDDINGS: z.preprocess(emptyToUndefined, z.enum(['auto', 'api', 'local', 'off']).default('auto')),
  /** How often the background re-embeds items another embedder made (after a change of embedder). */
  REEMBED_INTERVAL_MS: int(5 * 60_000, 1_000, 24 * 60 * 60_000),
});

export type IngestEnv = z.infer<typeof ingestEnvSchema>;

export class IngestEnvError extends Error {
  override name = 'IngestEnvError';
}

/** Parses the ingest part of an environment (unknown variables are ignored); names every bad variable. */
export function loadIngestEnv(source: Record<string, unknown> = process.env): IngestEnv {
  const parsed = ingestEnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new IngestEnvError(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
