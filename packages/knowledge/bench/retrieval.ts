/**
 * Retrieval benchmark: hybrid search (full-text fused with vector similarity) over 100,000 chunks
 * of one chatbot, on PGlite with pgvector (the embedded default) and on PostgreSQL (with pgvector
 * where the server has it, else full-text only). Prints p50/p95 of the hybrid search through its
 * HNSW index, the same search done exactly (a scan) and the recall@10 of the first against the
 * second.
 *
 *   pnpm --filter @fanpilot/knowledge bench
 *
 * BENCH_CHUNKS (100000), BENCH_QUERIES (200), BENCH_DIMENSIONS (384), BENCH_ENGINES
 * (pglite,postgres), BENCH_DATABASE_URL (else
 * TEST_DATABASE_URL, else the machine's loopback PostgreSQL; '' skips PostgreSQL).
 *
 * The corpus is synthetic but shaped like a creator's library: 400 topics, each with its own words
 * and an embedding centre; every chunk is ~90 words drawn from its topic's words and a Zipf-shaped
 * common vocabulary, and its vector is its topic's centre plus noise. A question takes a handful of
 * words from one chunk, and its vector is that chunk's vector plus noise.
 */
import { performance } from 'node:perf_hooks';
import { createDb, type DbHandle, migrateToLatest } from '@fanpilot/db';
import { createTestDatabase } from '@fanpilot/testkit';
import type { Embedder } from '../src/ingest/embeddings.ts';
import { retrieve, retrievePassages } from '../src/retrieve.ts';
import { chunks, DIMENSIONS, load, questions } from './corpus.ts';

const ENGINES = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',');
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function run(label: string, h: DbHandle) {
  const vectors = await h.hasVector();
  const t0 = performance.now();
  const chatbotId = await load(h, vectors);
  const loadSeconds = (performance.now() - t0) / 1000;
  let q = 0;
  const embedder: Embedder | null = vectors
    ? {
        model: 'bench',
        embedDocuments: async () => [],
        embedQuery: async () => questions[q]!.vector,
      }
    : null;
  const search = async (exact: boolean) => {
    const times: number[] = [];
    const results: string[][] = [];
    for (q = 0; q < questions.length; q++) {
      const start = performance.now();
      const hits = await retrieve(h.db, {
        chatbotId,
        question: questions[q]!.text,
        embedder,
        limit: 10,
        exact,
      });
      times.push(performance.now() - start);
      results.push(hits.map((x) => x.chunkId));
    }
    return { times, results };
  };
  await search(false); // warm-up
  const indexed = await search(false);
  const exact = await search(true);
  // What an answer asks for: the candidates fused, then packed into the prompt's budget.
  const packed: number[] = [];
  for (q = 0; q < questions.length; q++) {
    const start = performance.now();
    await retrievePassages(h.db, { chatbotId, question: questions[q]!.text, embedder });
    packed.push(performance.now() - start);
  }
  let overlap = 0;
  let total = 0;
  for (let i = 0; i < questions.length; i++) {
    const truth = new Set(exact.results[i]);
    overlap += indexed.results[i]!.filter((id) => truth.has(id)).length;
    total += truth.size;
  }
  const recall = total ? overlap / total : 1;
  console.log(
    `\n${label}: ${chunks.length.toLocaleString('en')} chunks (${vectors ? `${DIMENSIONS}-dim vectors + full-text, HNSW` : 'full-text only: no pgvector on this server'}), loaded in ${loadSeconds.toFixed(0)} s`,
  );
  console.log(
    `  hybrid search:       p50 ${ms(percentile(indexed.times, 50))}, p95 ${ms(percentile(indexed.times, 95))}   (target p95 < 20 ms)`,
  );
  console.log(
    `  passages for the prompt (24 candidates packed into 8,000 characters): p50 ${ms(percentile(packed, 50))}, p95 ${ms(percentile(packed, 95))}`,
  );
  console.log(
    `  exact search (scan): p50 ${ms(percentile(exact.times, 50))}, p95 ${ms(percentile(exact.times, 95))}`,
  );
  console.log(
    `  recall@10 of the hybrid ranking against exact search: ${recall.toFixed(3)}   (target ≥ 0.95)`,
  );
}

if (ENGINES.includes('pglite')) {
  const pglite = createDb({ dataDir: 'memory://' });
  await migrateToLatest(pglite.db);
  await run('PGlite (embedded default)', pglite);
  await pglite.close();
}

if (DATABASE_URL && ENGINES.includes('postgres')) {
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  try {
    database = await createTestDatabase(DATABASE_URL);
  } catch (e) {
    console.log(`\nPostgreSQL at ${DATABASE_URL} unavailable (${(e as Error).message}): skipped`);
  }
  if (database) {
    const h = createDb({ databaseUrl: database.url });
    try {
      await migrateToLatest(h.db);
      await run('PostgreSQL', h);
    } finally {
      await h.close();
      await database.drop();
    }
  }
}
