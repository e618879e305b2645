import { randomUUID } from 'node:crypto';
import { type ChunkDraft, knowledgeRepository, storeChunks } from '@fanpilot/core';
import { createDb, type Database, type DbHandle, migrateToLatest } from '@fanpilot/db';
import {
  chunkSections,
  createEmbedder,
  createLocalEmbedder,
  type Embedder,
  retrievePassages,
  sentenceSimilarity,
} from '@fanpilot/knowledge';
import {
  COFFEE_FACTS,
  COFFEE_HELD_OUT,
  COFFEE_TUNING,
  COFFEE_UNRELATED,
  type CoffeeFact,
  coffeePage,
  type LoopbackServer,
  seedCreator,
  startEncoderServer,
} from '@fanpilot/testkit';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineAnswer, offlineAnswerByMeaning, offlineFallbackText } from './offline.ts';

// Issue 37, "paraphrases understood": a set of its own (home coffee, packages/testkit/src/coffee-paraphrases.ts)
// asked in other words among look-alikes, as short posts and as long web pages, measured for what
// reaches the prompt (hybrid, and the encoder alone) and for what the embedded answerer quotes.
// Each half of the set (tuning, held out) is reported; the thresholds hold for the whole set.

/** Vectors of the local encoder, remembered by text (the two corpora and the API share them). */
const memo = new Map<string, number[]>();
async function encode(texts: string[]): Promise<number[][]> {
  const missing = [...new Set(texts.filter((t) => !memo.has(t)))];
  if (missing.length > 0) {
    const vectors = await createLocalEmbedder().embedDocuments(missing);
    for (const [i, t] of missing.entries()) memo.set(t, vectors[i]!);
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
      await knowledgeRepository(db).insert({
        id,
        chatbotId,
        type: 'url',
        url: it.url,
        fileName: null,
        title: it.title,
      });
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
      { chunkSize: 1000, chunkOverlap: 150 },
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
  /** Answered from the right passage by meaning (the embedded answerer). */
  answered: Set<CoffeeFact>;
  /** Answered from the right passage by the question's words alone (the answerer before). */
  byWords: Set<CoffeeFact>;
  ms: number[];
  answerMs: number[];
}

/** The embedded answerer's sentence similarity: the local encoder, as on embedded defaults. */
const similarity = sentenceSimilarity(createLocalEmbedder());

async function measure(db: Kysely<Database>, corpus: Corpus, embedder: Embedder): Promise<Measured> {
  const m: Measured = {
    hybrid: new Set(),
    encoder: new Set(),
    answered: new Set(),
    byWords: new Set(),
    ms: [],
    answerMs: [],
  };
  for (const fact of COFFEE_FACTS) {
    const base = { chatbotId: corpus.chatbotId, question: fact.question, embedder };
    const holds = (p: { content: string }) => flat(p.content).includes(fact.answer);
    const started = performance.now();
    const passages = await retrievePassages(db, base);
    m.ms.push(performance.now() - started);
    if (passages.some(holds)) m.hybrid.add(fact);
    if ((await retrievePassages(db, { ...base, only: 'vector' })).some(holds)) m.encoder.add(fact);
    const right = (q: { from: number | null; text: string }) =>
      q.from !== null && holds(passages[q.from]!) && flat(q.text).includes(fact.answer);
    const asked = performance.now();
    if (right(await offlineAnswerByMeaning('Bea', fact.question, passages, similarity))) m.answered.add(fact);
    m.answerMs.push(performance.now() - asked);
    if (right(offlineAnswer('Bea', fact.question, passages))) m.byWords.add(fact);
  }
  return m;
}

function report(label: string, m: Measured) {
  const half = (set: Set<CoffeeFact>, facts: CoffeeFact[]) =>
    share(facts.filter((f) => set.has(f)).length, facts.length);
  const line = (name: string, set: Set<CoffeeFact>) =>
    `  ${name}: all ${half(set, COFFEE_FACTS)}, tuning ${half(set, COFFEE_TUNING)}, held out ${half(set, COFFEE_HELD_OUT)}`;
  const at = (ms: number[], q: number) => {
    const sorted = ms.slice().sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(0);
  };
  console.log(
    [
      `coffee paraphrases, ${label}:`,
      line('answer in the prompt, hybrid', m.hybrid),
      line('answer in the prompt, encoder alone', m.encoder),
      line('embedded answerer quotes the answer, by meaning', m.answered),
      line('embedded answerer quotes the answer, by words alone', m.byWords),
      `  retrievePassages: p50 ${at(m.ms, 0.5)} ms, p95 ${at(m.ms, 0.95)} ms; answerer by meaning: p50 ${at(m.answerMs, 0.5)} ms, p95 ${at(m.answerMs, 0.95)} ms`,
      `  hybrid missed: ${
        COFFEE_FACTS.filter((f) => !m.hybrid.has(f))
          .map((f) => f.question)
          .join(' | ') || 'none'
      }`,
      `  answerer missed: ${
        COFFEE_FACTS.filter((f) => !m.answered.has(f))
          .map((f) => f.question)
          .join(' | ') || 'none'
      }`,
    ].join('\n'),
  );
}

describe('paraphrased questions among look-alikes (coffee set), PGlite + pgvector', () => {
  let h: DbHandle;
  let corpora: Corpus[];
  const embedder = createLocalEmbedder();
  beforeAll(async () => {
    h = createDb({ dataDir: 'memory://' });
    await migrateToLatest(h.db);
    expect(await h.hasVector()).toBe(true);
    corpora = await seed(h.db, { ...embedder, embedDocuments: encode });
  }, 900_000);
  afterAll(async () => h?.close());

  it('is a set worth measuring: 32 facts with three look-alikes each, halves of 16, unrelated questions', () => {
    expect(COFFEE_FACTS).toHaveLength(32);
    expect(COFFEE_TUNING).toHaveLength(16);
    expect(COFFEE_HELD_OUT).toHaveLength(16);
    for (const f of COFFEE_FACTS) expect(new Set([f.answer, ...f.lookalikes]).size).toBe(4);
    expect(COFFEE_UNRELATED.length).toBeGreaterThanOrEqual(10);
  });

  // The goals of issue 37 are ≥ 0.9 into the prompt and ≥ 0.75 quoted by the embedded answerer. Met
  // on posts for the prompt; on long pages and for the answerer the figures below are what this
  // encoder reaches (docs/knowledge.md, record 0080), asserted as floors main does not reach.
  it('local encoder: into the prompt ≥ 90% of posts and ≥ 50% of long pages, never fewer than the encoder alone; the embedded answerer quotes more by meaning than by words, and never answers an unrelated question', async () => {
    const n = COFFEE_FACTS.length;
    for (const corpus of corpora) {
      const m = await measure(h.db, corpus, embedder);
      report(`${corpus.label}, local encoder`, m);
      const answeredUnrelated: string[] = [];
      for (const question of COFFEE_UNRELATED) {
        const passages = await retrievePassages(h.db, { chatbotId: corpus.chatbotId, question, embedder });
        const quoted = await offlineAnswerByMeaning('Bea', question, passages, similarity);
        if (quoted.from !== null) answeredUnrelated.push(`${question} → ${quoted.text}`);
        expect(quoted.text).toBe(offlineFallbackText('Bea'));
      }
      expect(answeredUnrelated, corpus.label).toEqual([]);
      expect(m.hybrid.size / n, corpus.label).toBeGreaterThanOrEqual(corpus.label === 'posts' ? 0.9 : 0.5);
      expect(m.hybrid.size, corpus.label).toBeGreaterThanOrEqual(m.encoder.size);
      expect(m.answered.size, corpus.label).toBeGreaterThan(m.byWords.size);
      expect(m.answered.size, corpus.label).toBeGreaterThanOrEqual(4);
    }
  }, 600_000);

  describe("a provider's embeddings (an OpenAI-compatible API on loopback, backed by a sentence encoder)", () => {
    let server: LoopbackServer;
    let api: Embedder;
    let g: DbHandle;
    let apiCorpora: Corpus[];
    beforeAll(async () => {
      server = await startEncoderServer(encode);
      api = createEmbedder({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${server.url}/v1` })!;
      g = createDb({ dataDir: 'memory://' });
      await migrateToLatest(g.db);
      apiCorpora = await seed(g.db, api);
    }, 900_000);
    afterAll(async () => {
      await g?.close();
      await server?.close();
    });

    it('into the prompt ≥ 90% of posts and ≥ 50% of long pages, never fewer than the encoder alone', async () => {
      for (const corpus of apiCorpora) {
        const m = await measure(g.db, corpus, api);
        report(`${corpus.label}, provider embeddings`, m);
        expect(m.hybrid.size / COFFEE_FACTS.length, corpus.label).toBeGreaterThanOrEqual(
          corpus.label === 'posts' ? 0.9 : 0.5,
        );
        expect(m.hybrid.size, corpus.label).toBeGreaterThanOrEqual(m.encoder.size);
      }
    }, 600_000);
  });
});
