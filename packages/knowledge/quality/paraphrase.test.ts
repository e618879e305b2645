import { createDb, type DbHandle, migrateToLatest } from '@fanpilot/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Embedder } from '../src/ingest/embeddings.ts';
import { createLocalEmbedder, LOCAL_ENCODER_DIMENSIONS } from '../src/ingest/local-encoder.ts';
import { KNOWLEDGE_BUDGET_CHARS, retrieve, retrievePassages } from '../src/retrieve.ts';
import {
  FOLLOW_UP_CASES,
  HANDBOOK_FACT,
  HANDBOOK_QUESTION,
  PARAPHRASE_FACTS,
  RECIPES,
} from './paraphrase-set.ts';
import { seedParaphrasePages, seedParaphraseSet } from './seed.ts';

/**
 * The paraphrase set (paraphrase-set.ts) with the local sentence encoder on embedded PGlite +
 * pgvector: what reaches the model's prompt (the passages packed into the knowledge budget), for
 * questions in other words among look-alikes (as short posts, and as one paragraph of longer web
 * pages), for follow-ups, and for a fact on page 3 of a PDF.
 */
describe('paraphrased questions, local encoder, PGlite + pgvector', () => {
  let h: DbHandle;
  let embedder: Embedder;
  let seeded: Awaited<ReturnType<typeof seedParaphraseSet>>;
  const share = (hits: number, of: number) => `${hits}/${of} (${(hits / of).toFixed(2)})`;

  beforeAll(async () => {
    embedder = createLocalEmbedder();
    h = createDb({ dataDir: 'memory://' });
    await migrateToLatest(h.db);
    expect(await h.hasVector()).toBe(true);
    seeded = await seedParaphraseSet(h.db, embedder);
  }, 180_000);
  afterAll(async () => h?.close());

  it('is a set worth measuring: dozens of facts with three look-alikes, twenty look-alike recipes', () => {
    expect(PARAPHRASE_FACTS.length).toBeGreaterThanOrEqual(36);
    for (const f of PARAPHRASE_FACTS) expect(new Set([f.answer, ...f.lookalikes]).size).toBe(4);
    expect(RECIPES.length).toBe(20);
  });

  it('encodes with the local model: 512 unit-length dimensions, paraphrases nearer than look-alikes', async () => {
    const [q, right, wrong] = await embedder.embedDocuments([
      'How do you keep your fluids up during long workouts?',
      'I drink a litre of water with electrolytes for every hour I train.',
      'My favourite meal after training is rice with chicken.',
    ]);
    expect(q).toHaveLength(LOCAL_ENCODER_DIMENSIONS);
    expect(Math.hypot(...q!)).toBeCloseTo(1, 5);
    const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
    expect(cos(q!, right!)).toBeGreaterThan(cos(q!, wrong!));
  });

  it('brings the answer into the prompt for ≥ 90% of paraphrased questions, never fewer than the encoder alone', async () => {
    let hybrid = 0;
    let hybridTop5 = 0;
    let encoder = 0;
    let encoderTop5 = 0;
    let text = 0;
    const missed: string[] = [];
    let chars = 0;
    for (const fact of PARAPHRASE_FACTS) {
      const post = seeded.posts.get(fact.question)!;
      const base = { chatbotId: seeded.chatbotId, question: fact.question, embedder };
      const passages = await retrievePassages(h.db, base);
      chars = Math.max(
        chars,
        passages.reduce((a, p) => a + p.content.length, 0),
      );
      if (passages.some((p) => p.content.includes(post))) hybrid++;
      else missed.push(fact.question);
      if ((await retrieve(h.db, { ...base, limit: 5 })).some((p) => p.content === post)) hybridTop5++;
      if ((await retrievePassages(h.db, { ...base, only: 'vector' })).some((p) => p.content.includes(post)))
        encoder++;
      if ((await retrieve(h.db, { ...base, only: 'vector', limit: 5 })).some((p) => p.content === post))
        encoderTop5++;
      if ((await retrievePassages(h.db, { ...base, only: 'text' })).some((p) => p.content.includes(post)))
        text++;
    }
    const n = PARAPHRASE_FACTS.length;
    console.log(
      [
        `paraphrase set, ${n} facts × 4 look-alike posts, local encoder (USE-lite), PGlite:`,
        `  into the prompt (${KNOWLEDGE_BUDGET_CHARS} chars; fullest ${chars}): hybrid ${share(hybrid, n)}, encoder alone ${share(encoder, n)}, full-text alone ${share(text, n)}`,
        `  top 5: hybrid ${share(hybridTop5, n)}, encoder alone ${share(encoderTop5, n)}`,
        missed.length ? `  missed: ${missed.join(' | ')}` : '  missed: none',
      ].join('\n'),
    );
    expect(chars).toBeLessThanOrEqual(KNOWLEDGE_BUDGET_CHARS);
    expect(hybrid / n, `missed: ${missed.join(' | ')}`).toBeGreaterThanOrEqual(0.9);
    expect(hybrid).toBeGreaterThanOrEqual(encoder);
    expect(hybrid).toBeGreaterThanOrEqual(text);
  }, 120_000);

  it('finds the recipe a follow-up means for ≥ 90% of follow-ups, searched with the turn before', async () => {
    let found = 0;
    let first = 0;
    let alone = 0;
    const missed: string[] = [];
    for (const c of FOLLOW_UP_CASES) {
      const base = { chatbotId: seeded.chatbotId, question: c.question, embedder };
      const passages = await retrievePassages(h.db, { ...base, context: [c.earlier] });
      // Found: among the first three passages of the prompt (all twenty recipes would fit the
      // budget, so merely reaching the prompt would say nothing here).
      const at = passages.findIndex((p) => p.content.includes(c.answer));
      if (at >= 0 && at < 3) found++;
      else missed.push(`${c.earlier} / ${c.question} (at ${at})`);
      if (at === 0) first++;
      const own = await retrievePassages(h.db, base);
      const ownAt = own.findIndex((p) => p.content.includes(c.answer));
      if (ownAt >= 0 && ownAt < 3) alone++;
    }
    const n = FOLLOW_UP_CASES.length;
    console.log(
      [
        'follow-ups among 20 look-alike recipes (the earlier turn names the recipe, the follow-up does not):',
        `  in the first 3 passages: with the earlier turn ${share(found, n)}, question alone ${share(alone, n)}; ranked first with the earlier turn ${share(first, n)}`,
        missed.length ? `  missed: ${missed.join(' | ')}` : '  missed: none',
      ].join('\n'),
    );
    expect(found / n).toBeGreaterThanOrEqual(0.9);
    expect(found).toBeGreaterThan(alone);
  }, 120_000);

  it('finds the answer for ≥ 90% when it is one paragraph of a web page among pages of look-alikes and other topics, never fewer than the encoder alone', async () => {
    const pages = await seedParaphrasePages(h.db, embedder);
    let hybrid = 0;
    let encoder = 0;
    let text = 0;
    const missed: string[] = [];
    for (const fact of PARAPHRASE_FACTS) {
      const base = { chatbotId: pages.chatbotId, question: fact.question, embedder };
      const holds = (passages: { content: string }[]) =>
        passages.some((p) => p.content.includes(fact.answer));
      if (holds(await retrievePassages(h.db, base))) hybrid++;
      else missed.push(fact.question);
      if (holds(await retrievePassages(h.db, { ...base, only: 'vector' }))) encoder++;
      if (holds(await retrievePassages(h.db, { ...base, only: 'text' }))) text++;
    }
    const n = PARAPHRASE_FACTS.length;
    console.log(
      [
        `the set as ${pages.pages} web pages of nine paragraphs (${pages.chunks} chunks, read and chunked as ingestion does):`,
        `  into the prompt: hybrid ${share(hybrid, n)}, encoder alone ${share(encoder, n)}, full-text alone ${share(text, n)}`,
        missed.length ? `  missed: ${missed.join(' | ')}` : '  missed: none',
      ].join('\n'),
    );
    expect(hybrid / n, `missed: ${missed.join(' | ')}`).toBeGreaterThanOrEqual(0.9);
    expect(hybrid).toBeGreaterThanOrEqual(encoder);
    expect(hybrid).toBeGreaterThanOrEqual(text);
  }, 180_000);

  it('answers from page 3 of a PDF, the page kept with the passage', async () => {
    const passages = await retrievePassages(h.db, {
      chatbotId: seeded.chatbotId,
      question: HANDBOOK_QUESTION,
      embedder,
    });
    const hit = passages.find((p) => p.content.includes(HANDBOOK_FACT));
    expect(hit, 'the week 9 passage reaches the prompt').toBeTruthy();
    expect(passages.indexOf(hit!)).toBeLessThan(3);
    expect(hit!.metadata.page).toBe(3);
  });
});
