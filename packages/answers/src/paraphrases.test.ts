import { randomUUID } from 'node:crypto';
import { type ChunkDraft, knowledgeRepository, storeChunks } from '@fanpilot/core';
import { createDb, type Database, type DbHandle, migrateToLatest } from '@fanpilot/db';
import {
  chunkSections,
  createEmbedder,
  createLocalEmbedder,
  type Embedder,
  embedChunks,
  focusCandidates,
  retrieve,
  retrievePassages,
  sentenceSimilarity,
  sentencesOfText,
} from '@fanpilot/knowledge';
import {
  COFFEE_FACTS,
  COFFEE_HELD_OUT,
  COFFEE_TUNING,
  COFFEE_UNRELATED,
  type CoffeeFact,
  coffeePage,
  GUITAR_FACTS,
  GUITAR_HELD_OUT,
  GUITAR_TUNING,
  GUITAR_UNRELATED,
  type LoopbackServer,
  RUNNING_FACTS,
  RUNNING_HELD_OUT,
  RUNNING_TUNING,
  RUNNING_UNRELATED,
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

/** A paraphrase set: its facts, halves, unrelated questions and how its long pages read. */
interface ParaphraseSet {
  name: string;
  host: string;
  facts: CoffeeFact[];
  tuning: CoffeeFact[];
  heldOut: CoffeeFact[];
  unrelated: string[];
  page: (facts: CoffeeFact[], title: string) => string;
  pageTitle: string;
}

const SETS: ParaphraseSet[] = [
  {
    name: 'coffee',
    host: 'beans.example',
    facts: COFFEE_FACTS,
    tuning: COFFEE_TUNING,
    heldOut: COFFEE_HELD_OUT,
    unrelated: COFFEE_UNRELATED,
    page: (facts, title) => coffeePage(facts, COFFEE_FACTS, title),
    pageTitle: 'Coffee at home, part',
  },
  {
    // Written after the coffee set, before any tuning on it (issue 37's second set).
    name: 'running',
    host: 'miles.example',
    facts: RUNNING_FACTS,
    tuning: RUNNING_TUNING,
    heldOut: RUNNING_HELD_OUT,
    unrelated: RUNNING_UNRELATED,
    page: (facts, title) =>
      coffeePage(
        facts,
        RUNNING_FACTS,
        title,
        'Runners ask me how I train for a marathon, so here is my whole routine, week by week and from the first easy jog to race day. Lace up and read on.',
      ),
    pageTitle: 'My marathon training, part',
  },
  {
    // Written after the running set, before any tuning of the round that added it (docs/knowledge.md,
    // "Paraphrases, a third set: guitar practice").
    name: 'guitar',
    host: 'frets.example',
    facts: GUITAR_FACTS,
    tuning: GUITAR_TUNING,
    heldOut: GUITAR_HELD_OUT,
    unrelated: GUITAR_UNRELATED,
    page: (facts, title) =>
      coffeePage(
        facts,
        GUITAR_FACTS,
        title,
        'Players ask me how I practise the guitar at home, so here is my whole routine, from tuning up to the songs I keep in my fingers. Grab your guitar and read on.',
      ),
    pageTitle: 'How I practise the guitar, part',
  },
];

interface Corpus {
  chatbotId: string;
  label: string;
  set: ParaphraseSet;
}

/**
 * Two chatbots: "posts" (per fact the answer in one post of three sentences, beside three posts of
 * its look-alikes) and "pages" (four long web pages of eight sections each, chunked as ingestion
 * does, beside the look-alike posts).
 */
async function seed(db: Kysely<Database>, embedder: Embedder, set: ParaphraseSet): Promise<Corpus[]> {
  const store = async (chatbotId: string, items: { title: string; url: string; chunks: ChunkDraft[] }[]) => {
    const texts = items.flatMap((i) => i.chunks.map((c) => c.content));
    // As ingestion does: the chunks' vectors and their windows' (record 0090).
    const { vectors, windows } = await embedChunks(embedder, texts);
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
        windows: windows.slice(at, at + it.chunks.length),
        title: it.title,
        contentHash: `seed:${embedder.model}`,
      });
      at += it.chunks.length;
    }
  };
  const lookalikePosts = (n: { v: number }) =>
    set.facts.flatMap((f) => {
      const [x, y, z] = f.lookalikes;
      return [
        [x, y, z],
        [y, z, x],
        [z, x, y],
      ].map((s) => ({
        title: `Post ${++n.v}`,
        url: `https://${set.host}/p/${n.v}`,
        chunks: [{ content: s.join(' '), metadata: {} }],
      }));
    });

  const posts = (await seedCreator(db)).chatbotId;
  const n = { v: 0 };
  await store(posts, [
    ...set.facts.map((f) => ({
      title: `Post ${++n.v}`,
      url: `https://${set.host}/p/${n.v}`,
      chunks: [{ content: [f.lookalikes[1], f.answer, f.lookalikes[0]].join(' '), metadata: {} }],
    })),
    ...lookalikePosts(n),
  ]);

  const pages = (await seedCreator(db)).chatbotId;
  const items: { title: string; url: string; chunks: ChunkDraft[] }[] = [];
  for (let p = 0; p < 4; p++) {
    // Tuning and held-out facts mixed on every page.
    const facts = set.facts.filter((_, i) => i % 4 === p);
    const title = `${set.pageTitle} ${p + 1}`;
    const url = `https://${set.host}/guide/${p + 1}`;
    const chunks = await chunkSections(
      [{ text: set.page(facts, title), metadata: { url, title } }],
      { url },
      { chunkSize: 1000, chunkOverlap: 150 },
    );
    items.push({ title, url, chunks });
  }
  await store(pages, [...items, ...lookalikePosts({ v: 1000 })]);
  await sql`analyze chunks`.execute(db);
  return [
    { chatbotId: posts, label: `${set.name} posts`, set },
    { chatbotId: pages, label: `${set.name} long pages`, set },
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
  for (const fact of corpus.set.facts) {
    const base = { chatbotId: corpus.chatbotId, question: fact.question, embedder };
    const holds = (p: { content: string }) => flat(p.content).includes(fact.answer);
    const started = performance.now();
    const passages = await retrievePassages(db, base);
    m.ms.push(performance.now() - started);
    if (passages.some(holds)) m.hybrid.add(fact);
    else if (process.env.PARAPHRASE_DIAG) await missed(db, corpus, fact, embedder, holds);
    if ((await retrievePassages(db, { ...base, only: 'vector' })).some(holds)) m.encoder.add(fact);
    const right = (q: { from: number | null; text: string }) =>
      q.from !== null && holds(passages[q.from]!) && flat(q.text).includes(fact.answer);
    if (process.env.PARAPHRASE_DIAG) await diag(corpus, fact.question, passages, fact.answer);
    const asked = performance.now();
    if (right(await offlineAnswerByMeaning('Bea', fact.question, passages, similarity))) m.answered.add(fact);
    m.answerMs.push(performance.now() - asked);
    if (right(offlineAnswer('Bea', fact.question, passages))) m.byWords.add(fact);
  }
  return m;
}

/**
 * Diagnostics while tuning (PARAPHRASE_DIAG=1), for a fact whose answer missed the prompt: the right
 * chunk's rank among the first stage's 48 candidates and after the second stage (-1: not among
 * them), and whether the passage the second stage made of it still holds the answer.
 */
async function missed(
  db: Kysely<Database>,
  corpus: Corpus,
  fact: CoffeeFact,
  embedder: Embedder,
  holds: (p: { content: string }) => boolean,
) {
  const ranked = await retrieve(db, {
    chatbotId: corpus.chatbotId,
    question: fact.question,
    embedder,
    limit: 48,
  });
  const focused = await focusCandidates(embedder, fact.question, ranked);
  const at = focused.findIndex((c) => holds({ content: c.wholeContent ?? c.content }));
  console.log(
    `MISS ${JSON.stringify({
      c: corpus.label,
      tuning: corpus.set.tuning.includes(fact),
      fused: ranked.findIndex(holds),
      focused: at,
      focusHolds: at >= 0 && holds(focused[at]!),
      q: fact.question,
    })}`,
  );
}

/** Diagnostics while tuning (PARAPHRASE_DIAG=1): the sentence similarities the answerer sees. */
async function diag(
  corpus: Corpus,
  question: string,
  passages: { content: string }[],
  answer: string | null,
) {
  const all = passages
    .flatMap((p, i) => sentencesOfText(p.content).map((text) => ({ text, i })))
    .slice(0, 64);
  const sims = (
    (await similarity(
      question,
      all.map((a) => a.text),
    )) ?? []
  ).map((x) => x ?? 0);
  const mean = sims.reduce((a, b) => a + b, 0) / sims.length;
  const sd = Math.sqrt(sims.reduce((a, b) => a + (b - mean) ** 2, 0) / sims.length);
  const order = sims.map((x, i) => [x, i] as const).sort((a, b) => b[0] - a[0]);
  const right = answer ? all.findIndex((a) => answer.startsWith(a.text.slice(0, 40))) : -1;
  console.log(
    `DIAG ${JSON.stringify({
      c: corpus.label,
      tuning: corpus.set.tuning.some((f) => f.question === question),
      unrelated: answer === null,
      best: +order[0]![0].toFixed(3),
      second: +(order[1]?.[0] ?? 0).toFixed(3),
      mean: +mean.toFixed(3),
      sd: +sd.toFixed(3),
      bestPassage: all[order[0]![1]]?.i,
      right:
        right < 0
          ? null
          : {
              sim: +sims[right]!.toFixed(3),
              rank: order.findIndex((o) => o[1] === right),
              passage: all[right]!.i,
            },
    })}`,
  );
}

function report(label: string, set: ParaphraseSet, m: Measured) {
  const half = (set: Set<CoffeeFact>, facts: CoffeeFact[]) =>
    share(facts.filter((f) => set.has(f)).length, facts.length);
  const line = (name: string, got: Set<CoffeeFact>) =>
    `  ${name}: all ${half(got, set.facts)}, tuning ${half(got, set.tuning)}, held out ${half(got, set.heldOut)}`;
  const at = (ms: number[], q: number) => {
    const sorted = ms.slice().sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(0);
  };
  console.log(
    [
      `paraphrases, ${label}:`,
      line('answer in the prompt, hybrid', m.hybrid),
      line('answer in the prompt, encoder alone', m.encoder),
      line('embedded answerer quotes the answer, by meaning', m.answered),
      line('embedded answerer quotes the answer, by words alone', m.byWords),
      `  retrievePassages: p50 ${at(m.ms, 0.5)} ms, p95 ${at(m.ms, 0.95)} ms; answerer by meaning: p50 ${at(m.answerMs, 0.5)} ms, p95 ${at(m.answerMs, 0.95)} ms`,
      `  hybrid missed: ${
        set.facts
          .filter((f) => !m.hybrid.has(f))
          .map((f) => f.question)
          .join(' | ') || 'none'
      }`,
      `  answerer missed: ${
        set.facts
          .filter((f) => !m.answered.has(f))
          .map((f) => f.question)
          .join(' | ') || 'none'
      }`,
    ].join('\n'),
  );
}

/**
 * The floors asserted (share of the set into the prompt; facts quoted by the embedded answerer),
 * per corpus: what the second stage reaches (docs/knowledge.md, records 0080, 0088 and 0090).
 */
const FLOORS: Record<string, { prompt: number; answered: number }> = {
  // The answerer's floors rose with the question in the creator's voice (record 0097): coffee 6 → 7,
  // running long pages 9 → 10, guitar 4 → 5.
  'coffee posts': { prompt: 0.9, answered: 7 },
  // Long pages with their chunks' two-sentence windows searched in the first stage (record 0090):
  // 22/24 and 22/24 (21/24 with the provider's embeddings, whose rounding breaks a tie); coffee
  // 29/32 with the fused ranking's first candidate whole (record 0093).
  'coffee long pages': { prompt: 0.9, answered: 7 },
  'running posts': { prompt: 0.85, answered: 9 },
  'running long pages': { prompt: 0.91, answered: 10 },
  'guitar posts': { prompt: 0.87, answered: 5 },
  'guitar long pages': { prompt: 0.87, answered: 5 },
};

describe('paraphrased questions among look-alikes (coffee, running and guitar sets), PGlite + pgvector', () => {
  let h: DbHandle;
  let corpora: Corpus[];
  const embedder = createLocalEmbedder();
  beforeAll(async () => {
    h = createDb({ dataDir: 'memory://' });
    await migrateToLatest(h.db);
    expect(await h.hasVector()).toBe(true);
    corpora = [];
    for (const set of SETS) corpora.push(...(await seed(h.db, { ...embedder, embedDocuments: encode }, set)));
  }, 900_000);
  afterAll(async () => h?.close());

  it('are sets worth measuring: three look-alikes per fact, halves, unrelated questions', () => {
    expect(COFFEE_FACTS).toHaveLength(32);
    expect(RUNNING_FACTS).toHaveLength(24);
    expect(GUITAR_FACTS).toHaveLength(24);
    for (const set of SETS) {
      expect(set.tuning.length + set.heldOut.length).toBe(set.facts.length);
      expect(new Set([...set.tuning, ...set.heldOut]).size).toBe(set.facts.length);
      for (const f of set.facts) expect(new Set([f.answer, ...f.lookalikes]).size).toBe(4);
      expect(set.unrelated.length).toBeGreaterThanOrEqual(10);
    }
  });

  it('local encoder: into the prompt at the floors, never fewer than the encoder alone; the embedded answerer quotes more by meaning than by words, and never answers an unrelated question', async () => {
    const results: { corpus: Corpus; m: Measured; answeredUnrelated: string[] }[] = [];
    for (const corpus of corpora) {
      const m = await measure(h.db, corpus, embedder);
      report(`${corpus.label}, local encoder`, corpus.set, m);
      const answeredUnrelated: string[] = [];
      for (const question of corpus.set.unrelated) {
        const passages = await retrievePassages(h.db, { chatbotId: corpus.chatbotId, question, embedder });
        if (process.env.PARAPHRASE_DIAG) await diag(corpus, question, passages, null);
        const quoted = await offlineAnswerByMeaning('Bea', question, passages, similarity);
        if (quoted.from !== null) answeredUnrelated.push(`${question} → ${quoted.text}`);
        else expect(quoted.text).toBe(offlineFallbackText('Bea'));
      }
      console.log(
        `  ${corpus.label}: unrelated answered ${answeredUnrelated.length}/${corpus.set.unrelated.length}`,
      );
      results.push({ corpus, m, answeredUnrelated });
    }
    // Asserted once every corpus is measured (each line of the report stands).
    for (const { corpus, m, answeredUnrelated } of results) {
      expect(answeredUnrelated, corpus.label).toEqual([]);
      const floor = FLOORS[corpus.label]!;
      expect(m.hybrid.size / corpus.set.facts.length, corpus.label).toBeGreaterThanOrEqual(floor.prompt);
      expect(m.hybrid.size, corpus.label).toBeGreaterThanOrEqual(m.encoder.size);
      expect(m.answered.size, corpus.label).toBeGreaterThanOrEqual(m.byWords.size);
      expect(m.answered.size, corpus.label).toBeGreaterThanOrEqual(floor.answered);
    }
  }, 1_200_000);

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
      apiCorpora = [];
      for (const set of SETS) apiCorpora.push(...(await seed(g.db, api, set)));
    }, 900_000);
    afterAll(async () => {
      await g?.close();
      await server?.close();
    });

    it('into the prompt at the floors, never fewer than the encoder alone', async () => {
      for (const corpus of apiCorpora) {
        const m = await measure(g.db, corpus, api);
        report(`${corpus.label}, provider embeddings`, corpus.set, m);
        expect(m.hybrid.size / corpus.set.facts.length, corpus.label).toBeGreaterThanOrEqual(
          FLOORS[corpus.label]!.prompt,
        );
        expect(m.hybrid.size, corpus.label).toBeGreaterThanOrEqual(m.encoder.size);
      }
    }, 1_200_000);
  });
});
