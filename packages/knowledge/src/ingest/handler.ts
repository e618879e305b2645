import { createHash } from 'node:crypto';
import { ingestJobSchema, KNOWLEDGE_FILE_MAX_BYTES } from '@fanpilot/contracts';
import {
  claimKnowledgeItem,
  failKnowledgeRun,
  hasVectorColumn,
  keepKnowledgeChunks,
  storeChunks,
} from '@fanpilot/core';
import type { Database, KnowledgeItemRow } from '@fanpilot/db';
import type { Storage } from '@fanpilot/storage';
import type { Kysely } from 'kysely';
import robotsParser from 'robots-parser';
import { type ChunkDraft, type ChunkOptions, chunkTranscript } from './chunk.ts';
import { type IngestEnv, loadIngestEnv } from './config.ts';
import { createEmbedder, type Embedder } from './embeddings.ts';
import { IngestError, permanent, reasonOf } from './errors.ts';
import { looksLikePdf } from './extract.ts';
import {
  type GuardedFetchOptions,
  guardedFetch,
  type Lookup,
  lookupWithOverrides,
  USER_AGENT,
} from './net.ts';
import { digestOf, type ParseResult } from './parse-task.ts';
import { createParserPool, type ParserPool } from './pool.ts';
import { parseSitemap } from './sitemap.ts';
import { embedChunks } from './windows.ts';

type Robot = ReturnType<typeof robotsParser>;

import { decodeText } from './text.ts';
import { fetchTranscriptSegments, fetchYoutubeTitle, parseYoutubeUrl } from './youtube.ts';

/** The reason a source failed for good: without "It will be retried.", with what the creator can do. */
export function finalReason(reason: string): string {
  const kept = reason.replace(/\s*It will be retried\.?\s*$/i, '').trim();
  return kept === reason.trim() ? reason : `${kept} Tries ran out; press Retry to try again.`;
}

export interface IngestLogger {
  info: (obj: object, msg: string) => void;
  warn: (obj: object, msg: string) => void;
}

export interface IngestDeps {
  db: Kysely<Database>;
  storage: Pick<Storage, 'get'>;
  /** Raw environment (process.env) or an already parsed IngestEnv. */
  env: Record<string, unknown> | IngestEnv;
  /** Attempts the job runner makes; the last one fails the item instead of asking for a retry. */
  maxAttempts?: number;
  /** Parser threads; defaults to INGEST_PARSER_THREADS or 2. */
  concurrency?: number;
  /** DNS override (tests). */
  lookup?: Lookup;
  /** Embeddings override; defaults to OpenAI when OPENAI_API_KEY is set. */
  embedder?: Embedder | null;
  pool?: ParserPool;
  logger?: IngestLogger;
}

export interface IngestHandler {
  (data: unknown, context: { attempt: number; jobId: string | undefined }): Promise<void>;
  /** Ends the parser threads (after the runner has finished its jobs). */
  close: () => Promise<void>;
  env: IngestEnv;
}

const isParsedEnv = (env: IngestDeps['env']): env is IngestEnv =>
  Array.isArray((env as IngestEnv).INGEST_ALLOWED_PRIVATE_HOSTS);

interface Outcome {
  title: string | null;
  chunks: ChunkDraft[];
  pages: number;
  /** What the chunks say (digestOf), worked out where they were made: a parser thread, mostly. */
  digest: string;
}

/**
 * The INGEST_QUEUE handler: takes a knowledge item from pending to processing to completed (or
 * active, when embedded), or to failed with a reason a person understands. Idempotent: a second
 * run replaces the item's chunks; a run that a newer one superseded changes nothing.
 */
export function createIngestHandler(deps: IngestDeps): IngestHandler {
  const env = isParsedEnv(deps.env) ? deps.env : loadIngestEnv(deps.env);
  const maxAttempts = deps.maxAttempts ?? 5;
  const pool =
    deps.pool ??
    createParserPool({
      size: env.INGEST_PARSER_THREADS ?? deps.concurrency ?? 2,
      timeoutMs: env.INGEST_PARSE_TIMEOUT_MS,
      memoryMb: env.INGEST_PARSER_MEMORY_MB,
    });
  const embedder = deps.embedder === undefined ? createEmbedder(env) : deps.embedder;
  const chunking: ChunkOptions = { chunkSize: env.INGEST_CHUNK_SIZE, chunkOverlap: env.INGEST_CHUNK_OVERLAP };
  const { db } = deps;
  const lookup = deps.lookup ?? lookupWithOverrides(env.INGEST_DNS_OVERRIDES);

  const fetchOptions = (signal: AbortSignal): GuardedFetchOptions => ({
    allowedPrivateHosts: env.INGEST_ALLOWED_PRIVATE_HOSTS,
    timeoutMs: env.INGEST_FETCH_TIMEOUT_MS,
    maxBytes: env.INGEST_MAX_PAGE_BYTES,
    maxRedirects: env.INGEST_MAX_REDIRECTS,
    signal,
    ...(lookup ? { lookup } : {}),
  });

  async function page(url: string, base: Record<string, unknown>, signal: AbortSignal): Promise<ParseResult> {
    const res = await guardedFetch(url, fetchOptions(signal));
    const type = res.contentType.split(';')[0]!.trim().toLowerCase();
    if (type === 'application/pdf' || looksLikePdf(res.body)) {
      return pool.run({ kind: 'pdf-url', bytes: res.body, url: res.url, base, chunking }, signal);
    }
    if (type && !/^(text\/|application\/(xhtml\+xml|xml)$)/.test(type)) {
      throw permanent(`This link points to a file of type ${type}, not a web page.`);
    }
    return pool.run(
      { kind: 'html', bytes: res.body, contentType: res.contentType, url: res.url, base, chunking },
      signal,
    );
  }

  async function ingestUrl(item: KnowledgeItemRow, signal: AbortSignal): Promise<Outcome> {
    const base = { type: 'url', source: item.url };
    // robots.txt first: a page the site keeps from robots is not even fetched.
    const robots = item.url ? await robotsOf(item.url, signal) : null;
    if (robots && item.url && robots.isAllowed(item.url, USER_AGENT) === false) {
      throw permanent("This site's robots.txt does not allow reading this page.");
    }
    const res = await guardedFetch(item.url ?? '', fetchOptions(signal));
    const type = res.contentType.split(';')[0]!.trim().toLowerCase();
    if (/xml/.test(type) || /\.xml$/i.test(new URL(res.url).pathname)) {
      const sitemap = parseSitemap(decodeText(res.body));
      if (sitemap) return ingestSitemap(res.url, sitemap, base, signal);
    }
    if (type === 'application/pdf' || looksLikePdf(res.body)) {
      return pool.run({ kind: 'pdf-url', bytes: res.body, url: res.url, base, chunking }, signal);
    }
    if (type && !/^(text\/|application\/xhtml\+xml$)/.test(type)) {
      throw permanent(`This link points to a file of type ${type}, not a web page.`);
    }
    const first = await pool.run(
      { kind: 'html', bytes: res.body, contentType: res.contentType, url: res.url, base, chunking },
      signal,
    );
    return ingestSite(res.url, first, robots, base, signal);
  }

  /** The site's robots.txt rules; null when it has none or it cannot be read (then all is allowed). */
  async function robotsOf(url: string, signal: AbortSignal): Promise<Robot | null> {
    const robotsUrl = new URL('/robots.txt', url).href;
    try {
      const res = await guardedFetch(robotsUrl, { ...fetchOptions(signal), maxBytes: 500_000 });
      return robotsParser(robotsUrl, decodeText(res.body));
    } catch {
      return null;
    }
  }

  /**
   * "Add a website" (issue 29): the page given, then the pages of the same site it links to,
   * breadth first, up to INGEST_SITE_MAX_PAGES, skipping what robots.txt disallows and pages that
   * cannot be read. Named by the first page's title, with the page count when more than one.
   */
  async function ingestSite(
    start: string,
    first: ParseResult,
    robots: Robot | null,
    base: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<Outcome> {
    const cap = env.INGEST_SITE_MAX_PAGES;
    const results: ParseResult[] = [first];
    const key = (u: string) => u.replace(/\/+$/, '');
    const seen = new Set([key(start)]);
    const queue = [...(first.links ?? [])];
    while (queue.length > 0 && results.length < cap && !signal.aborted) {
      const next = queue.shift()!;
      if (seen.has(key(next))) continue;
      seen.add(key(next));
      if (robots && robots.isAllowed(next, USER_AGENT) === false) continue;
      try {
        const result = await page(next, { ...base, site: start }, signal);
        results.push(result);
        for (const link of result.links ?? []) if (!seen.has(key(link))) queue.push(link);
      } catch {
        // A page that cannot be read leaves the others.
      }
    }
    if (results.length === 1) return first;
    const title = first.title ?? new URL(start).host;
    return {
      title: `${title} (${results.length} pages)`,
      chunks: results.flatMap((r) => r.chunks),
      pages: results.reduce((n, r) => n + r.pages, 0),
      digest: createHash('sha256')
        .update(results.map((r) => r.digest).join(','))
        .digest('hex'),
    };
  }

  async function ingestSitemap(
    url: string,
    sitemap: { pages: string[]; sitemaps: string[] },
    base: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<Outcome> {
    const cap = env.INGEST_SITEMAP_MAX_PAGES;
    const pages = new Set(sitemap.pages);
    // A sitemap index: read child sitemaps (a few) until the cap is reached.
    for (const child of sitemap.sitemaps.slice(0, 10)) {
      if (pages.size >= cap) break;
      try {
        const res = await guardedFetch(child, fetchOptions(signal));
        for (const p of parseSitemap(decodeText(res.body))?.pages ?? []) pages.add(p);
      } catch {
        // A broken child sitemap leaves the others.
      }
    }
    const targets = [...pages].slice(0, cap);
    if (targets.length === 0) throw permanent('The sitemap lists no pages.');
    const results: ParseResult[] = [];
    let firstReason: string | null = null;
    let next = 0;
    const workers = Array.from({ length: Math.min(4, targets.length) }, async () => {
      while (next < targets.length && !signal.aborted) {
        const target = targets[next++]!;
        try {
          results.push(await page(target, { ...base, sitemap: url }, signal));
        } catch (err) {
          firstReason ??= reasonOf(err);
        }
      }
    });
    await Promise.all(workers);
    if (results.length === 0) {
      throw permanent(
        `None of the sitemap's ${targets.length} pages could be read: ${firstReason ?? 'unknown reason'}`,
      );
    }
    const host = new URL(url).host;
    return {
      title: `Sitemap of ${host} (${results.length} of ${targets.length} pages)`,
      chunks: results.flatMap((r) => r.chunks),
      pages: results.reduce((n, r) => n + r.pages, 0),
      digest: createHash('sha256')
        .update(results.map((r) => r.digest).join(','))
        .digest('hex'),
    };
  }

  async function ingestFile(item: KnowledgeItemRow, signal: AbortSignal): Promise<Outcome> {
    if (!item.file_key || !item.file_name)
      throw permanent('The uploaded file is missing. Please upload it again.');
    const object = await deps.storage.get(item.file_key);
    if (!object) throw permanent('The uploaded file is missing. Please upload it again.');
    const parts: Buffer[] = [];
    let total = 0;
    for await (const chunk of object.body) {
      const part = chunk as Uint8Array;
      // A view, not a copy: the bytes are copied once, by the concat below.
      const buf = Buffer.from(part.buffer, part.byteOffset, part.byteLength);
      total += buf.length;
      if (total > KNOWLEDGE_FILE_MAX_BYTES) {
        object.body.destroy();
        throw permanent('The file is larger than 10 MB.');
      }
      parts.push(buf);
    }
    const bytes = Buffer.concat(parts);
    const base = { type: 'file', source: item.file_name, fileName: item.file_name };
    // The type check (by content, against the name) runs in the parser thread with the parsing:
    // CPU spent on the bytes stays off the thread that keeps the jobs' locks.
    return pool.run({ kind: 'file', fileName: item.file_name, bytes, base, chunking }, signal);
  }

  async function ingestYoutube(item: KnowledgeItemRow, signal: AbortSignal): Promise<Outcome> {
    const link = parseYoutubeUrl(item.youtube_url ?? '');
    const yt = { origin: env.INGEST_YOUTUBE_ORIGIN, timeoutMs: env.INGEST_FETCH_TIMEOUT_MS, signal };
    const title = item.title ?? (await fetchYoutubeTitle(link.videoId, yt));
    const segments = await fetchTranscriptSegments(link.videoId, yt);
    const chunks = chunkTranscript(
      segments,
      { type: 'youtube', source: link.url, videoId: link.videoId, ...(title ? { title } : {}) },
      chunking,
    );
    return { title, chunks, pages: 1, digest: digestOf(chunks) };
  }

  const handler = async (data: unknown, context: { attempt: number; jobId: string | undefined }) => {
    const { knowledgeItemId, run: givenRun } = ingestJobSchema.parse(data);
    const run = givenRun ?? null;
    // Claims the item in one statement: only a pending (or stalled processing) item whose run is this
    // one; a finished run redelivered, a superseded run or a deleted item changes nothing.
    const item = await claimKnowledgeItem(db, knowledgeItemId, run);
    if (!item) return;
    deps.logger?.info({ item: item.id, type: item.type, attempt: context.attempt }, 'ingest started');

    const signal = AbortSignal.timeout(Math.max(1_000, Math.floor(env.INGEST_STUCK_AFTER_MS / 2)));
    const t0 = performance.now();
    try {
      const outcome =
        item.type === 'url'
          ? await ingestUrl(item, signal)
          : item.type === 'file'
            ? await ingestFile(item, signal)
            : await ingestYoutube(item, signal);
      if (outcome.chunks.length === 0) throw permanent('No text was found in this source.');
      const t1 = performance.now();
      // A re-sync that finds the same content (and the same embedding model) keeps the chunks it
      // has: nothing is deleted, re-inserted or re-embedded.
      const { digest } = outcome;
      const vectors = embedder && (await hasVectorColumn(db)) ? embedder : null;
      const unchangedKey = `${digest}:${vectors?.model ?? 'text'}`;
      if (item.content_hash === unchangedKey && item.chunk_count === outcome.chunks.length) {
        const kept = await keepKnowledgeChunks(db, item.id, run, {
          status: vectors ? 'active' : 'completed',
          title: item.type !== 'file' ? outcome.title : undefined,
        });
        deps.logger?.info(
          {
            item: item.id,
            unchanged: true,
            kept,
            chunks: outcome.chunks.length,
          },
          'ingest finished',
        );
        return;
      }
      let embeddings: number[][] | null = null;
      let windows: number[][][] | null = null;
      // Without a vector column (plain PostgreSQL) vectors would not be stored: no time spent on them.
      if (embedder && (await hasVectorColumn(db))) {
        try {
          // The chunks' vectors and their windows' (record 0090), in one call.
          ({ vectors: embeddings, windows } = await embedChunks(
            embedder,
            outcome.chunks.map((c) => c.content),
          ));
        } catch (err) {
          // Full-text search still works; the item is completed rather than active.
          deps.logger?.warn({ item: item.id, err: (err as Error).message }, 'embedding failed');
          embeddings = null;
          windows = null;
        }
      }
      const stored = await storeChunks(db, {
        itemId: item.id,
        run,
        chunks: outcome.chunks,
        embeddings,
        windows,
        title: item.type === 'file' ? null : outcome.title,
        contentHash: `${digest}:${embeddings && embedder ? embedder.model : 'text'}`,
      });
      deps.logger?.info(
        {
          item: item.id,
          stored,
          chunks: outcome.chunks.length,
          pages: outcome.pages,
          extractMs: Math.round(t1 - t0),
          storeMs: Math.round(performance.now() - t1),
        },
        'ingest finished',
      );
    } catch (err) {
      const isPermanent = err instanceof IngestError ? err.permanent : false;
      const final = isPermanent || context.attempt >= maxAttempts;
      // A failure that is final says so: never "It will be retried." once nothing will be.
      const reason = final ? finalReason(reasonOf(err)) : reasonOf(err);
      deps.logger?.warn({ item: item.id, reason, final, err: (err as Error)?.message }, 'ingest failed');
      await failKnowledgeRun(db, item.id, run, { final, reason, permanent: isPermanent });
      if (!final) throw err instanceof Error ? err : new Error(String(err));
    }
  };

  return Object.assign(handler, { close: () => pool.close(), env });
}
