import { randomUUID } from 'node:crypto';
import { type ChunkDraft, knowledgeRepository, storeChunks } from '@fanpilot/core';
import { createDb, type Database, type DbHandle, migrateToLatest } from '@fanpilot/db';
import {
  chunkSections,
  createEmbedder,
  createLocalEmbedder,
  type Embedder,
  retrievePassages,
} from '@fanpilot/knowledge';
import {
  type CoffeeFact,
  COFFEE_FACTS,
  COFFEE_HELD_OUT,
  COFFEE_TUNING,
  COFFEE_UNRELATED,
  coffeePage,
  type LoopbackServer,
  seedCreator,
  startEncoderServer,
} from '@fanpilot/testkit';
import { type Kysely, sql } from 'kysely';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { offlineAnswer as offlineAnswerSync } from './src/offline.ts';
import * as offline from './src/offline.ts';
import { sentenceSimilarity } from '@fanpilot/knowledge';
const SIM = sentenceSimilarity(createLocalEmbedder());
const offlineAnswer = (c: string, q: string, k: any[]) => offline.offlineAnswerByMeaning(c, q, k, process.env.WORDS ? null : SIM);

// Issue 37, "paraphrases understood": a set of its own (home coffee, packages/testkit/src/coffee-paraphrases.ts)
// asked in other words among look-alikes, as short posts and as long web pages, measured for what
// reaches the prompt (hybrid, and the encoder alone) and for what the embedded answerer quotes.
// Each half of the set (tuning, held out) is reported; the thresholds hold for the whole set.

/** Vectors of the local encoder, remembered by text (the two corpora and the API share them). */
const CACHE='/tmp/h4n-vectors.json';
const memo = new Map<string, number[]>(existsSync(CACHE) ? JSON.parse(readFileSync(CACHE,'utf8')) : []);
async function encode(texts: string[]): Promise<number[][]> {
  const missing = [...new Set(texts.filter((t) => !memo.has(t)))];
  if (missing.length > 0) {
    const vectors = await createLocalEmbedder().embedDocuments(missing);
    missing.forEach((t, i) => memo.set(t, vectors[i]!));
  }
  return texts.map((t) => memo.get(t)!);
}

interface Corpus {
  chatbotId: string;
  label: string;
}

/**
 * Two chatbots: "posts" (per fact the answer in one post of three sentences, beside three posts of
 * its look-alikes) and "pages" (four long web pages of eight sections each, chunked as ingestion
 * does, beside the look-alike posts).
 */
async function seed(db: Kysely<Database>, embedder: Embedder): Promise<Corpus[]> {
  const store = async (chatbotId: string, items: { title: string; url: string; chunks: ChunkDraft[] }[]) => {
    const texts = items.flatMap((i) => i.chunks.map((c) => c.content));
    const vectors = await embedder.embedDocuments(texts);
    let at = 0;
    for (const it of items) {
      const id = randomUUID();
      await knowledgeRepository(db).insert({ id, chatbotId, type: 'url', url: it.url, fileName: null, title: it.title });
      await storeChunks(db, {
        itemId: id,
        run: null,
        chunks: it.chunks,
        embeddings: vectors.slice(at, at + it.chunks.length),
        title: it.title,
        contentHash: `seed:${embedder.model}`,
      });
      at += it.chunks.length;
    }
  };
  const lookalikePosts = (n: { v: number }) =>
    COFFEE_FACTS.flatMap((f) => {
      const [x, y, z] = f.lookalikes;
      return [
        [x, y, z],
        [y, z, x],
        [z, x, y],
      ].map((s) => ({
        title: `Post ${++n.v}`,
        url: `https://beans.example/p/${n.v}`,
        chunks: [{ content: s.join(' '), metadata: {} }],
      }));
    });

  const posts = (await seedCreator(db)).chatbotId;
  const n = { v: 0 };
  await store(posts, [
    ...COFFEE_FACTS.map((f) => ({
      title: `Post ${++n.v}`,
      url: `https://beans.example/p/${n.v}`,
      chunks: [{ content: [f.lookalikes[1], f.answer, f.lookalikes[0]].join(' '), metadata: {} }],
    })),
    ...lookalikePosts(n),
  ]);

  const pages = (await seedCreator(db)).chatbotId;
  const items: { title: string; url: string; chunks: ChunkDraft[] }[] = [];
  for (let p = 0; p < 4; p++) {
    // Tuning and held-out facts mixed on every page.
    const facts = COFFEE_FACTS.filter((_, i) => i % 4 === p);
    const title = `Coffee at home, part ${p + 1}`;
    const url = `https://beans.example/guide/${p + 1}`;
    const chunks = await chunkSections(
      [{ text: coffeePage(facts, COFFEE_FACTS, title), metadata: { url, title } }],
      { url },
      { chunkSize: Number(process.env.CHUNK ?? 1000), chunkOverlap: 150 },
    );
    items.push({ title, url, chunks });
  }
  await store(pages, [...items, ...lookalikePosts({ v: 1000 })]);
  await sql`analyze chunks`.execute(db);
  return [
    { chatbotId: posts, label: 'posts' },
    { chatbotId: pages, label: 'long pages' },
  ];
}

const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
const share = (hits: number, of: number) => `${hits}/${of} (${(hits / of).toFixed(2)})`;

interface Measured {
  hybrid: Set<CoffeeFact>;
  encoder: Set<CoffeeFact>;
  answered: Set<CoffeeFact>;
  ms: number[];
}

async function measure(db: Kysely<Database>, corpus: Corpus, embedder: Embedder): Promise<Measured> {
  const m: Measured = { hybrid: new Set(), encoder: new Set(), answered: new Set(), ms: [] };
  for (const fact of COFFEE_FACTS) {
    const base = { chatbotId: corpus.chatbotId, question: fact.question, embedder };
    const holds = (p: { content: string }) => flat(p.content).includes(fact.answer);
    const started = performance.now();
    const passages = await retrievePassages(db, base);
    m.ms.push(performance.now() - started);
    if (passages.some(holds)) m.hybrid.add(fact);
    if ((await retrievePassages(db, { ...base, only: 'vector' })).some(holds)) m.encoder.add(fact);
    const quoted = await offlineAnswer('Bea', fact.question, passages);
    if (COFFEE_TUNING.includes(fact)) {
      const ss = passages.flatMap((p) => offline.sentencesOf(p.content)).slice(0, 64);
      const sims = (await SIM(fact.question, ss))!;
      const right = ss.findIndex((x) => x === fact.answer);
      console.log('  tuning', right >= 0 ? (sims[right] ?? -1).toFixed(3) : 'absent', 'max', Math.max(...sims.map((x) => x ?? -1)).toFixed(3), fact.question.slice(0, 50));
    }
    if (quoted.from !== null && holds(passages[quoted.from]!) && flat(quoted.text).includes(fact.answer))
      m.answered.add(fact);
  }
  return m;
}

function report(label: string, m: Measured) {
  const half = (set: Set<CoffeeFact>, facts: CoffeeFact[]) =>
    share(facts.filter((f) => set.has(f)).length, facts.length);
  const line = (name: string, set: Set<CoffeeFact>) =>
    `  ${name}: all ${half(set, COFFEE_FACTS)}, tuning ${half(set, COFFEE_TUNING)}, held out ${half(set, COFFEE_HELD_OUT)}`;
  const sorted = m.ms.slice().sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(0);
  console.log(
    [
      `coffee paraphrases, ${label}:`,
      line('answer in the prompt, hybrid', m.hybrid),
      line('answer in the prompt, encoder alone', m.encoder),
      line('embedded answerer quotes the answer', m.answered),
      `  retrievePassages: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms`,
      `  hybrid missed: ${COFFEE_FACTS.filter((f) => !m.hybrid.has(f)).map((f) => f.question).join(' | ') || 'none'}`,
      `  answerer missed: ${COFFEE_FACTS.filter((f) => !m.answered.has(f)).map((f) => f.question).join(' | ') || 'none'}`,
    ].join('\n'),
  );
}


import { retrieve, packPassages, KNOWLEDGE_BUDGET_CHARS } from '@fanpilot/knowledge';
import { sentencesOf } from './src/offline.ts';
const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
async function rerankExp(db: Kysely<Database>, corpus: Corpus, embedder: Embedder, K: number, W: number) {
  let hits = 0; let sentences = 0; const missed: string[] = [];
  for (const fact of COFFEE_FACTS) {
    const ranked = await retrieve(db, { chatbotId: corpus.chatbotId, question: fact.question, embedder, limit: 48 });
    const [q] = await encode([fact.question]);
    const top = ranked.slice(0, K);
    const scored = await Promise.all(top.map(async (c, rank) => {
      const ss = sentencesOf(c.content);
      sentences += ss.length;
      const vs = await encode(ss);
      const best = Math.max(...vs.map((v) => dot(v, q!)));
      const whole = dot((await encode([c.content]))[0]!, q!);
      return { c, s: W * best + (1 - W) * whole, rank };
    }));
    scored.sort((a, b) => b.s - a.s || a.rank - b.rank);
    const order = [...scored.map((x) => x.c), ...ranked.slice(K)];
    const passages = packPassages(order, KNOWLEDGE_BUDGET_CHARS);
    if (passages.some((p) => flat(p.content).includes(fact.answer))) hits++; else missed.push(fact.question);
  }
  console.log(`  rerank K=${K} W=${W}: ${hits}/32, sentences/question ${(sentences / 32).toFixed(0)}`);
  return missed;
}

async function rankExp(db: Kysely<Database>, corpus: Corpus, embedder: Embedder) {
  const all = await sql<{ id: string; content: string }>`select id::text, content from chunks where chatbot_id = ${corpus.chatbotId}`.execute(db);
  const ranksV: number[] = []; const ranksS: number[] = []; const ranksF: number[] = [];
  for (const fact of COFFEE_FACTS) {
    const [q] = await encode([fact.question]);
    const rows = await Promise.all(all.rows.map(async (r) => {
      const vs = await encode(sentencesOf(r.content));
      return { r, whole: dot((await encode([r.content]))[0]!, q!), best: Math.max(...vs.map((v) => dot(v, q!))) };
    }));
    const right = (r: { content: string }) => flat(r.content).includes(fact.answer);
    const rankBy = (f: (x: (typeof rows)[0]) => number) => { const s = rows.slice().sort((a, b) => f(b) - f(a)); return s.findIndex((x) => right(x.r)); };
    ranksV.push(rankBy((x) => x.whole)); ranksS.push(rankBy((x) => x.best)); ranksF.push(rankBy((x) => 0.5 * x.best + 0.5 * x.whole));
  }
  const at = (rs: number[], k: number) => rs.filter((r) => r < k).length;
  for (const [n, rs] of [['whole', ranksV], ['best sentence', ranksS], ['half-half', ranksF]] as const)
    console.log(`  ${n}: top1 ${at(rs, 1)} top5 ${at(rs, 5)} top10 ${at(rs, 10)} top24 ${at(rs, 24)} top48 ${at(rs, 48)} / 32; ranks ${rs.join(',')}`);
  console.log('  chunks', all.rows.length);
}

async function rr(db: Kysely<Database>, corpus: Corpus, embedder: Embedder, N: number, B: number, L: number) {
  let hits = 0; let enc = 0;
  for (const fact of COFFEE_FACTS) {
    const ranked = await retrieve(db, { chatbotId: corpus.chatbotId, question: fact.question, embedder, limit: N });
    const [q] = await encode([fact.question]);
    const scored = await Promise.all(ranked.map(async (c, rank) => {
      const ss = c.content.length > L ? sentencesOf(c.content) : [c.content];
      enc += ss.length;
      const vs = await encode(ss);
      return { c, s: Math.max(...vs.map((v) => dot(v, q!))) + B * c.score, rank };
    }));
    scored.sort((a, b) => b.s - a.s || a.rank - b.rank);
    const passages = packPassages(scored.map((x) => x.c), KNOWLEDGE_BUDGET_CHARS);
    if (passages.some((p) => flat(p.content).includes(fact.answer))) hits++;
  }
  console.log(`  N=${N} B=${B} L=${L}: ${hits}/32, encodings/question ${(enc / 32).toFixed(0)}`);
}

const h = createDb({ dataDir: 'memory://' });
await migrateToLatest(h.db);
const embedder = createLocalEmbedder();
const corpora = await seed(h.db, { ...embedder, embedDocuments: encode });
writeFileSync(CACHE, JSON.stringify([...memo]));
for (const corpus of corpora) {
  if (!process.env.SKIP) { const m = await measure(h.db, corpus, embedder);
  report(corpus.label, m); }
  console.log(corpus.label);
  
  writeFileSync(CACHE, JSON.stringify([...memo]));
  for (const question of COFFEE_UNRELATED) {
    const passages = await retrievePassages(h.db, { chatbotId: corpus.chatbotId, question, embedder });
    const quoted = await offlineAnswer('Bea', question, passages);
    const ss = passages.flatMap((p) => offline.sentencesOf(p.content)).slice(0, 64);
    const sims = (await SIM(question, ss))!;
    console.log('  unrelated max sim', Math.max(...sims.map((x) => x ?? -1)).toFixed(3), question);
    if (quoted.from !== null) console.log('  UNRELATED ANSWERED', question, '→', quoted.text);
  }
}
await h.close();
process.exit(0);
