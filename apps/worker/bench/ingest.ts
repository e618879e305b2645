/**
 * Ingest benchmark: pages per second end to end through the worker process (BullMQ on Redis,
 * PostgreSQL, S3, parser threads), beside the bare parsers' pace on the same corpus in the same run.
 *
 *   pnpm --filter @fanpilot/worker bench
 *
 * Needs PostgreSQL and Redis (BENCH_DATABASE_URL / BENCH_REDIS_URL, defaulting to TEST_* or the
 * machine's loopback servers). Builds nothing: runs dist/main.js when built, the source otherwise.
 * Units: a PDF page, 500 words of a DOCX, a web page each count as one page. The corpus is in
 * corpus.ts; docs/knowledge.md explains the method and records results.
 *
 * Like with like: the bare parsers take each source's bytes from memory and only extract and chunk.
 * The pipeline also does everything a real ingest must: the job through BullMQ, claiming the item,
 * downloading the file from S3 (a loopback s3rver) or fetching the page over HTTP with the SSRF
 * guard, checking its type, and writing the chunks (with their full-text index) to PostgreSQL.
 * PostgreSQL, Redis and s3rver run on the same cores as the parsers. Both sides are warmed up, then
 * timed in interleaved rounds; medians are reported.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { INGEST_QUEUE, KNOWLEDGE_FILE_MAX_BYTES } from '@fanpilot/contracts';
import { createDb, migrateToLatest } from '@fanpilot/db';
import { createJobRunner } from '@fanpilot/jobs';
import { createParserPool, type ParseTask, runParseTask } from '@fanpilot/knowledge';
import { createStorage } from '@fanpilot/storage';
import { articlePage, createTestDatabase, makeDocx, makePdf, startSite } from '@fanpilot/testkit';
import { Redis } from 'ioredis';
import S3rver from 's3rver';
import { blogArticle, paragraph, sentence, wordDocument } from './corpus.ts';

const PDFS = Number(process.env.BENCH_PDFS ?? 12);
const PDF_PAGES = Number(process.env.BENCH_PDF_PAGES ?? 25);
const DOCXS = Number(process.env.BENCH_DOCXS ?? 40);
const WEB_PAGES = Number(process.env.BENCH_WEB_PAGES ?? 60);
const DOCX_WORDS = Number(process.env.BENCH_DOCX_WORDS ?? 2000);
/**
 * BENCH_CORPUS=minimal: the first corpus (a DOCX of 8 short paragraphs, a 5 KB page with a bare
 * nav and footer), where fixed per-job costs weigh most; the default is shaped like real sources.
 */
const MINIMAL = process.env.BENCH_CORPUS === 'minimal';
/** Parser threads: the CPU-bound part, one per core. */
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2);
/** Jobs the worker runs at once (I/O waits overlap with parsing); unset: the worker's default. */
const JOBS = process.env.BENCH_WORKER_CONCURRENCY;
const dbUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const chunking = { chunkSize: 1000, chunkOverlap: 150 };
/** Timed passes over the corpus on each side, after one warm-up pass; the median is reported. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Untimed passes first: the parsers' JIT and heaps reach their steady state, as in a long-running worker. */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Doc {
  kind: 'pdf' | 'docx' | 'web';
  name: string;
  bytes: Buffer;
  pages: number;
}

function corpus(): Doc[] {
  const docs: Doc[] = [];
  for (let d = 0; d < PDFS; d++) {
    const pages = Array.from({ length: PDF_PAGES }, (_, p) =>
      Array.from({ length: 40 }, (_, l) => sentence(d * 1000 + p * 40 + l, 11)),
    );
    docs.push({ kind: 'pdf', name: `guide-${d}.pdf`, bytes: makePdf(pages), pages: PDF_PAGES });
  }
  for (let d = 0; d < DOCXS; d++) {
    if (MINIMAL) {
      docs.push({
        kind: 'docx',
        name: `notes-${d}.docx`,
        bytes: makeDocx(Array.from({ length: 8 }, (_, i) => paragraph(d * 100 + i))),
        pages: 1,
      });
      continue;
    }
    // Counted as Word counts pages: 500 words a page.
    docs.push({
      kind: 'docx',
      name: `handbook-${d}.docx`,
      bytes: wordDocument(d, DOCX_WORDS),
      pages: Math.ceil(DOCX_WORDS / 500),
    });
  }
  for (let d = 0; d < WEB_PAGES; d++) {
    const html = MINIMAL
      ? articlePage(
          `Article ${d}`,
          Array.from({ length: 8 }, (_, i) => paragraph(d * 50 + i)),
        )
      : blogArticle(d);
    docs.push({ kind: 'web', name: `/post/${d}`, bytes: Buffer.from(html), pages: 1 });
  }
  return docs;
}

const taskFor = (doc: Doc): ParseTask =>
  doc.kind === 'web'
    ? {
        kind: 'html',
        bytes: doc.bytes,
        contentType: 'text/html; charset=utf-8',
        url: `http://localhost${doc.name}`,
        base: {},
        chunking,
      }
    : { kind: 'file', fileKind: doc.kind, bytes: doc.bytes, base: {}, chunking };

async function timed(run: () => Promise<void>) {
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

async function main() {
  const docs = corpus();
  const totalPages = docs.reduce((n, d) => n + d.pages, 0);
  const pagesOf = (kind: Doc['kind']) => docs.filter((d) => d.kind === kind).reduce((n, d) => n + d.pages, 0);
  for (const d of docs)
    if (d.bytes.length > KNOWLEDGE_FILE_MAX_BYTES) throw new Error(`${d.name} is too large`);

  // The bare parsers, one after another in this thread: extract + chunk of bytes in memory.
  const barePass = async (byKind: Record<string, number[]>) =>
    timed(async () => {
      for (const kind of ['pdf', 'docx', 'web'] as const) {
        const seconds = await timed(async () => {
          for (const d of docs.filter((x) => x.kind === kind)) await runParseTask(taskFor(d));
        });
        byKind[kind] = [...(byKind[kind] ?? []), seconds];
      }
    });
  // The same parsers on as many threads as the worker uses.
  const pool = createParserPool({ size: CONCURRENCY, timeoutMs: 120_000, memoryMb: 512 });
  const pooledPass = () => {
    let next = 0;
    return timed(async () => {
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < docs.length) await pool.run(taskFor(docs[next++]!));
        }),
      );
    });
  };

  // End to end: items in PostgreSQL, files in S3, jobs on Redis, the worker process doing the rest.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fanpilot-bench-'));
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dataDir,
    configureBuckets: [{ name: 'bench', configs: [] }],
  });
  const { port: s3Port } = (await s3.run()) as { port: number };
  const s3Endpoint = `http://127.0.0.1:${s3Port}`;
  const storage = await createStorage({
    endpoint: s3Endpoint,
    publicEndpoint: s3Endpoint,
    region: 'us-east-1',
    bucket: 'bench',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  });
  const site = await startSite(
    Object.fromEntries(docs.filter((d) => d.kind === 'web').map((d) => [d.name, { body: d.bytes }])),
  );
  const fresh = await createTestDatabase(dbUrl);
  const handle = createDb({ databaseUrl: fresh.url });
  await migrateToLatest(handle.db);
  const prefix = `fp-bench-${randomBytes(4).toString('hex')}`;
  const jobs = createJobRunner({ redisUrl, prefix });
  let worker: ChildProcess | undefined;
  try {
    const creator = await handle.db
      .insertInto('creators')
      .values({ google_sub: 'bench', email: 'b@x', name: 'Bench', username: 'bench', description: '' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const bot = await handle.db
      .insertInto('chatbots')
      .values({
        creator_id: creator.id,
        name: 'Bench',
        instructions: '',
        model: 'gpt-4o-mini',
        temperature: 0.7,
        initial_messages: '[]',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // One copy of the corpus per pass (WARMUP passes, then ROUNDS timed), each its own items.
    const passes: string[][] = [];
    for (let r = 0; r < WARMUP + ROUNDS; r++) {
      const ids: string[] = [];
      passes.push(ids);
      for (const d of docs) {
        const id = crypto.randomUUID();
        ids.push(id);
        if (d.kind === 'web') {
          await handle.db
            .insertInto('knowledge_items')
            .values({
              id,
              chatbot_id: bot.id,
              type: 'url',
              url: `http://localhost:${site.port}${d.name}`,
              job_run: id,
            })
            .execute();
        } else {
          const key = `knowledge/${bot.id}/${id}`;
          await storage.put(key, d.bytes, 'application/octet-stream');
          await handle.db
            .insertInto('knowledge_items')
            .values({
              id,
              chatbot_id: bot.id,
              type: 'file',
              file_name: d.name,
              file_key: key,
              file_size: d.bytes.length,
              job_run: id,
            })
            .execute();
        }
      }
    }

    const healthPort = await freePort();
    const here = fileURLToPath(new URL('.', import.meta.url));
    const built = path.join(here, '../dist/main.js');
    const args = existsSync(built)
      ? [built]
      : ['--conditions=@fanpilot/source', '--import', 'tsx', path.join(here, '../src/main.ts')];
    const nodeArgs = process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [];
    worker = spawn(process.execPath, [...nodeArgs, ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: fresh.url,
        REDIS_URL: redisUrl,
        JOBS_PREFIX: prefix,
        S3_ENDPOINT: s3Endpoint,
        S3_BUCKET: 'bench',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        S3_FORCE_PATH_STYLE: 'true',
        ...(JOBS ? { WORKER_CONCURRENCY: JOBS } : {}),
        INGEST_PARSER_THREADS: String(CONCURRENCY),
        WORKER_HEALTH_PORT: String(healthPort),
        WORKER_HEALTH_HOST: '127.0.0.1',
        INGEST_ALLOWED_PRIVATE_HOSTS: 'localhost',
        LOG_LEVEL: process.env.BENCH_WORKER_LOG_LEVEL ?? 'warn',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    // BENCH_WORKER_LOG=file keeps the worker's JSON log (with BENCH_WORKER_LOG_LEVEL=info: per-item timings).
    const logFile = process.env.BENCH_WORKER_LOG;
    if (logFile) worker.stdout?.on('data', (d) => appendFileSync(logFile, d));
    // Ready once its health port answers (its 'ready' line is not logged at the warn level).
    let out = '';
    worker.stdout?.on('data', (d) => (out += d));
    let ready = false;
    for (let i = 0; i < 600 && !ready; i++) {
      if (worker.exitCode !== null) throw new Error(`worker exited: ${out}`);
      ready = await fetch(`http://127.0.0.1:${healthPort}/healthz`)
        .then((r) => r.ok)
        .catch(() => false);
      if (!ready) await new Promise((r) => setTimeout(r, 50));
    }
    if (!ready) throw new Error(`worker not ready: ${out}`);
    const runPass = (ids: string[]) =>
      timed(async () => {
        for (const id of ids)
          await jobs.enqueue(INGEST_QUEUE, { knowledgeItemId: id, run: id }, { jobId: id });
        await waitAll(handle.db, ids);
      });
    // Warm-up passes on each side (off the clock), then ROUNDS rounds, each timing one pass of the
    // bare parsers, one of the pooled parsers and one through the worker, so that the machine's
    // drift touches all three alike; medians are reported.
    const bareByKind: Record<string, number[]> = {};
    for (let w = 0; w < WARMUP; w++) {
      await barePass({});
      await pooledPass();
      await runPass(passes[w]!);
    }
    const bareRounds: number[] = [];
    const pooledRounds: number[] = [];
    const pipelineRounds: number[] = [];
    let cpuSeconds = 0;
    const cpuAfter = new Map<CpuGroup, number>();
    for (const ids of passes.slice(WARMUP)) {
      bareRounds.push(await barePass(bareByKind));
      pooledRounds.push(await pooledPass());
      const before = cpuSnapshot(worker.pid!);
      const seconds = await runPass(ids);
      const after = cpuSnapshot(worker.pid!);
      pipelineRounds.push(seconds);
      // Only the pipeline passes count toward where the CPU went.
      for (const [k, v] of after) cpuAfter.set(k, (cpuAfter.get(k) ?? 0) + v - (before.get(k) ?? 0));
      cpuSeconds += seconds;
    }
    const bareSeconds = median(bareRounds);
    const pooledSeconds = median(pooledRounds);
    const pipelineSeconds = median(pipelineRounds);
    const cpu = cpuUse(new Map(), cpuAfter, cpuSeconds);
    const failed = await handle.db
      .selectFrom('knowledge_items')
      .select(['file_name', 'url', 'error'])
      .where('status', '=', 'failed')
      .execute();
    if (failed.length > 0) throw new Error(`items failed: ${JSON.stringify(failed.slice(0, 3))}`);
    const chunks = await handle.db
      .selectFrom('chunks')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();

    const rate = (pages: number, s: number) => pages / s;
    const bare = rate(totalPages, bareSeconds);
    const pooled = rate(totalPages, pooledSeconds);
    const pipeline = rate(totalPages, pipelineSeconds);
    const fmt = (n: number) => n.toFixed(1).padStart(8);
    console.log(
      `\nIngest benchmark (${MINIMAL ? 'minimal' : 'realistic'} corpus): ${docs.length} sources, ${totalPages} pages (${pagesOf('pdf')} PDF pages in ${PDFS} PDFs, ${DOCXS} DOCX, ${WEB_PAGES} web pages); ${chunks.n} chunks`,
    );
    console.log(
      `  bare parsers, 1 thread          ${fmt(bare)} pages/s   (pdf ${fmt(rate(pagesOf('pdf'), median(bareByKind.pdf!)))}, docx ${fmt(rate(pagesOf('docx'), median(bareByKind.docx!)))}, web ${fmt(rate(pagesOf('web'), median(bareByKind.web!)))})`,
    );
    console.log(`  bare parsers, ${CONCURRENCY} threads         ${fmt(pooled)} pages/s`);
    console.log(
      `  end to end through the worker   ${fmt(pipeline)} pages/s   (${((pipeline / bare) * 100).toFixed(0)}% of 1-thread bare, ${((pipeline / pooled) * 100).toFixed(0)}% of ${CONCURRENCY}-thread bare)`,
    );
    console.log(
      `  bare = extract + chunk of bytes already in memory; end to end adds BullMQ, the item claim, the S3 download or HTTP fetch, the type check and the PostgreSQL write (${JOBS ?? 'default'} jobs in flight, ${CONCURRENCY} parser threads; PostgreSQL, Redis and s3rver share the cores)`,
    );
    console.log(
      `  each side warmed by ${WARMUP} passes over the corpus, then the median of ${ROUNDS} interleaved timed passes (pipeline passes: ${pipelineRounds.map((x) => (totalPages / x).toFixed(0)).join(', ')} pages/s)`,
    );
    if (Object.keys(cpu).length > 0)
      console.log(
        `  cores kept busy during the timed pipeline passes: ${Object.entries(cpu)
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => `${k} ${v.toFixed(2)}`)
          .join(', ')}`,
      );
    console.log(
      JSON.stringify({
        bench: 'ingest',
        corpus: MINIMAL ? 'minimal' : 'realistic',
        sources: docs.length,
        pages: totalPages,
        bareParsersPagesPerSecond: Number(bare.toFixed(2)),
        pooledParsersPagesPerSecond: Number(pooled.toFixed(2)),
        pipelinePagesPerSecond: Number(pipeline.toFixed(2)),
        pipelineVsBare: Number((pipeline / bare).toFixed(3)),
        pipelineVsPooled: Number((pipeline / pooled).toFixed(3)),
        rounds: ROUNDS,
        coresBusy: cpu,
      }),
    );
  } finally {
    await pool.close();
    if (worker && worker.exitCode === null) {
      worker.kill('SIGTERM');
      await new Promise((r) => worker!.once('exit', r));
    }
    await jobs.close();
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await handle.close();
    await fresh.drop();
    await site.close();
    await s3.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Where CPU time goes, in ticks (1/100 s) from Linux's /proc; empty elsewhere. */
type CpuGroup =
  | 'worker main thread'
  | 'worker parser threads'
  | 'worker V8 and libuv threads'
  | 'PostgreSQL'
  | 'Redis'
  | 'bench (s3rver, site, polling)'
  | 'other';
function cpuSnapshot(workerPid: number): Map<CpuGroup, number> {
  const out = new Map<CpuGroup, number>();
  const add = (k: CpuGroup, stat: string) => {
    const close = stat.lastIndexOf(')');
    const f = stat.slice(close + 2).split(' ');
    out.set(k, (out.get(k) ?? 0) + Number(f[11]) + Number(f[12]));
    return stat.slice(stat.indexOf('(') + 1, close);
  };
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  };
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return out;
  }
  for (const pid of pids) {
    const comm = read(`/proc/${pid}/comm`)?.trim();
    if (comm === undefined) continue;
    if (Number(pid) === workerPid) {
      let tids: string[] = [];
      try {
        tids = readdirSync(`/proc/${pid}/task`);
      } catch {}
      for (const tid of tids) {
        const stat = read(`/proc/${pid}/task/${tid}/stat`);
        if (!stat) continue;
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        add(
          name === 'MainThread' || tid === pid
            ? 'worker main thread'
            : name === 'WorkerThread'
              ? 'worker parser threads'
              : 'worker V8 and libuv threads',
          stat,
        );
      }
      continue;
    }
    const stat = read(`/proc/${pid}/stat`);
    if (!stat) continue;
    add(
      Number(pid) === process.pid
        ? 'bench (s3rver, site, polling)'
        : comm === 'postgres'
          ? 'PostgreSQL'
          : comm.startsWith('redis')
            ? 'Redis'
            : 'other',
      stat,
    );
  }
  return out;
}

/** Average cores each group kept busy over `seconds` of wall time. */
function cpuUse(before: Map<CpuGroup, number>, after: Map<CpuGroup, number>, seconds: number) {
  const use: Partial<Record<CpuGroup, number>> = {};
  for (const [k, v] of after) {
    const cores = (v - (before.get(k) ?? 0)) / 100 / seconds;
    if (cores >= 0.005) use[k] = Number(cores.toFixed(2));
  }
  return use;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitAll(db: ReturnType<typeof createDb>['db'], ids: string[]) {
  for (;;) {
    const left = await db
      .selectFrom('knowledge_items')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('id', 'in', ids)
      .where('status', 'in', ['pending', 'processing'])
      .executeTakeFirstOrThrow();
    if (Number(left.n) === 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
