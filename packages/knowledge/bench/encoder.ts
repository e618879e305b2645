/**
 * The local sentence encoder (embedded defaults): how long a 200-page PDF takes to embed (read and
 * chunked as an upload is, then encoded on the encoder threads), how long a question takes, and the
 * paraphrase set's figures (quality/) with it on PGlite + pgvector.
 *
 *   pnpm --filter @fanpilot/knowledge bench     (BENCH_PAGES, 200 by default)
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createDb, migrateToLatest } from '@fanpilot/db';
import { makePdf } from '@fanpilot/testkit';
import { FOLLOW_UP_CASES, PARAPHRASE_FACTS } from '../quality/paraphrase-set.ts';
import { seedParaphraseSet } from '../quality/seed.ts';
import { windowTextsOf } from '../src/focus.ts';
import { chunkSections } from '../src/ingest/chunk.ts';
import { extractPdf } from '../src/ingest/extract.ts';
import { createLocalEmbedder, LOCAL_ENCODER_THREADS } from '../src/ingest/local-encoder.ts';
import { embedChunks } from '../src/ingest/windows.ts';
import { retrieve, retrievePassages } from '../src/retrieve.ts';

const PAGES = Number(process.env.BENCH_PAGES ?? 200);
const words = [
  'training',
  'recovery',
  'the long run',
  'strength',
  'nutrition',
  'sleep',
  'mobility',
  'race day',
];
// Prose pages of about 2,800 characters, as a coaching handbook has.
const pages = Array.from({ length: PAGES }, (_, p) =>
  Array.from(
    { length: 24 },
    (_, l) =>
      `In week ${(p % 16) + 1} we focus on ${words[(p + l) % words.length]}, and the plan asks for steady effort and patience from everyone.`,
  ),
);
const pdf = await extractPdf(makePdf(pages, { title: 'Handbook' }));
const chunks = await chunkSections(pdf.sections, {}, { chunkSize: 1000, chunkOverlap: 150 });
const embedder = createLocalEmbedder();
await embedder.embedDocuments(['warm up the encoder threads', 'and the model', 'on each thread', 'once']);
const t0 = performance.now();
const cpu0 = process.cpuUsage();
await embedder.embedDocuments(chunks.map((c) => c.content));
const seconds = (performance.now() - t0) / 1000;
// CPU time of the whole process (its encoder threads included): on a machine shared with other work
// the wall time stretches, the CPU time does not; divided by the threads it is the idle-machine time.
const cpu = process.cpuUsage(cpu0);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
console.log(
  `\nlocal encoder (USE-lite, ${LOCAL_ENCODER_THREADS} threads on ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)} at start):`,
);
console.log(
  `  a ${PAGES}-page PDF, ${chunks.length} chunks of ≤ 1,000 characters: ${seconds.toFixed(1)} s wall, ${cpuSeconds.toFixed(1)} s of CPU (${((cpuSeconds * 1000) / chunks.length).toFixed(0)} ms a chunk): ${(cpuSeconds / LOCAL_ENCODER_THREADS).toFixed(1)} s on ${LOCAL_ENCODER_THREADS} idle cores   (target: well under a minute)`,
);
// As ingestion embeds (record 0090): the chunks and their long chunks' two-sentence windows, in one call.
const windowCount = chunks.reduce((n, c) => n + windowTextsOf(c.content).length, 0);
const t1 = performance.now();
const cpu1 = process.cpuUsage();
await embedChunks(
  embedder,
  chunks.map((c) => c.content),
);
const withWindows = (performance.now() - t1) / 1000;
const cpuWith = process.cpuUsage(cpu1);
const cpuWithSeconds = (cpuWith.user + cpuWith.system) / 1e6;
console.log(
  `  the same with its ${windowCount} two-sentence windows (as ingestion embeds): ${withWindows.toFixed(1)} s wall, ${cpuWithSeconds.toFixed(1)} s of CPU (${(cpuWithSeconds / cpuSeconds).toFixed(2)}× the chunks alone): ${(cpuWithSeconds / LOCAL_ENCODER_THREADS).toFixed(1)} s on ${LOCAL_ENCODER_THREADS} idle cores`,
);
if (process.env.BENCH_ENCODER_ONLY) process.exit(0);
const q: number[] = [];
for (const f of PARAPHRASE_FACTS) {
  const s = performance.now();
  await embedder.embedQuery(f.question);
  q.push(performance.now() - s);
}
q.sort((a, b) => a - b);
console.log(
  `  a question: p50 ${q[Math.floor(q.length / 2)]!.toFixed(1)} ms, p95 ${q[Math.floor(q.length * 0.95)]!.toFixed(1)} ms`,
);

const h = createDb({ dataDir: 'memory://' });
await migrateToLatest(h.db);
const seeded = await seedParaphraseSet(h.db, embedder);
const counts = { hybrid: 0, encoder: 0, text: 0, hybrid5: 0, encoder5: 0 };
for (const f of PARAPHRASE_FACTS) {
  const post = seeded.posts.get(f.question)!;
  const base = { chatbotId: seeded.chatbotId, question: f.question, embedder };
  const has = (ps: { content: string }[]) => ps.some((p) => p.content.includes(post));
  if (has(await retrievePassages(h.db, base))) counts.hybrid++;
  if (has(await retrievePassages(h.db, { ...base, only: 'vector' }))) counts.encoder++;
  if (has(await retrievePassages(h.db, { ...base, only: 'text' }))) counts.text++;
  if (has(await retrieve(h.db, { ...base, limit: 5 }))) counts.hybrid5++;
  if (has(await retrieve(h.db, { ...base, only: 'vector', limit: 5 }))) counts.encoder5++;
}
let followed = 0;
let alone = 0;
for (const c of FOLLOW_UP_CASES) {
  const base = { chatbotId: seeded.chatbotId, question: c.question, embedder };
  const at = (await retrievePassages(h.db, { ...base, context: [c.earlier] })).findIndex((p) =>
    p.content.includes(c.answer),
  );
  if (at >= 0 && at < 3) followed++;
  const own = (await retrievePassages(h.db, base)).findIndex((p) => p.content.includes(c.answer));
  if (own >= 0 && own < 3) alone++;
}
const n = PARAPHRASE_FACTS.length;
const r = (x: number, of = n) => `${x}/${of} (${(x / of).toFixed(2)})`;
console.log(
  `\nparaphrase set (${n} facts × 4 look-alike posts, 20 look-alike recipes), local encoder, PGlite:`,
);
console.log(
  `  answer into the prompt (8,000 characters): hybrid ${r(counts.hybrid)}, encoder alone ${r(counts.encoder)}, full-text alone ${r(counts.text)}   (target ≥ 0.90, never below the encoder)`,
);
console.log(`  top 5: hybrid ${r(counts.hybrid5)}, encoder alone ${r(counts.encoder5)}`);
console.log(
  `  follow-ups, recipe among the first 3 passages: with the earlier turn ${r(followed, FOLLOW_UP_CASES.length)}, question alone ${r(alone, FOLLOW_UP_CASES.length)}   (target ≥ 0.90)`,
);
await h.close();
process.exit(0);
