import { randomUUID } from 'node:crypto';
import { type ChunkDraft, knowledgeRepository, storeChunks } from '@fanpilot/core';
import type { Database } from '@fanpilot/db';
import { makePdf, seedCreator } from '@fanpilot/testkit';
import { type Kysely, sql } from 'kysely';
import { chunkSections } from '../src/ingest/chunk.ts';
import type { Embedder } from '../src/ingest/embeddings.ts';
import { extractHtml, extractPdf } from '../src/ingest/extract.ts';
import { embedChunks } from '../src/ingest/windows.ts';
import { HANDBOOK_PAGES, PARAPHRASE_FACTS, RECIPES } from './paraphrase-set.ts';

/**
 * The paraphrase set as a creator's knowledge: per fact four posts (the answer and three look-alikes,
 * each post its own sentence with two of the topic's others, as a creator repeats herself), twenty
 * look-alike recipes, and the handbook PDF read and chunked as an upload is. Stored through the same
 * `storeChunks` as ingestion, embedded with `embedder` when given.
 */
export async function seedParaphraseSet(db: Kysely<Database>, embedder: Embedder | null) {
  const { chatbotId, creatorId } = await seedCreator(db);
  const posts = new Map<string, string>();
  const items: { title: string; url: string | null; chunks: ChunkDraft[] }[] = [];
  let n = 0;
  for (const fact of PARAPHRASE_FACTS) {
    const [x, y, z] = fact.lookalikes;
    const variants = [
      [fact.answer, x, y],
      [x, y, z],
      [y, z, x],
      [z, x, fact.lookalikes[1]],
    ];
    for (const [i, sentences] of variants.entries()) {
      const content = sentences.join(' ');
      if (i === 0) posts.set(fact.question, content);
      items.push({
        title: `Post ${++n}`,
        url: `https://coach.example/p/${n}`,
        chunks: [{ content, metadata: {} }],
      });
    }
  }
  for (const r of RECIPES) {
    items.push({
      title: r.name,
      url: `https://coach.example/r/${encodeURIComponent(r.name)}`,
      chunks: [{ content: r.text, metadata: {} }],
    });
  }
  const pdf = await extractPdf(makePdf(HANDBOOK_PAGES, { title: 'Club handbook' }));
  const handbook = await chunkSections(
    pdf.sections,
    { fileName: 'handbook.pdf' },
    { chunkSize: 1000, chunkOverlap: 150 },
  );
  items.push({ title: 'handbook.pdf', url: null, chunks: handbook });

  await storeItems(db, chatbotId, items, embedder);
  return { chatbotId, creatorId, posts };
}

/**
 * The paraphrase set as web pages instead of posts: per fact three pages of nine paragraphs read as
 * a page is (Readability, then the ingestion's chunking: 1,000 characters, 150 overlap). The answer
 * is one paragraph in the middle of a page with its three look-alikes and paragraphs of other
 * topics; the two other pages hold the look-alikes and other topics without it. Its own chatbot.
 */
export async function seedParaphrasePages(db: Kysely<Database>, embedder: Embedder) {
  const { chatbotId } = await seedCreator(db);
  const n = PARAPHRASE_FACTS.length;
  const pages: { title: string; paragraphs: string[] }[] = [];
  PARAPHRASE_FACTS.forEach((fact, i) => {
    const other = (k: number, j: 0 | 1 | 2) => PARAPHRASE_FACTS[(i + k) % n]!.lookalikes[j];
    const [a, b, c] = fact.lookalikes;
    const topic = fact.answer.split(':')[0] ?? `Notes ${i}`;
    pages.push(
      {
        title: `${topic}: what I do`,
        paragraphs: [
          other(7, 0),
          a,
          other(13, 1),
          b,
          fact.answer,
          c,
          other(19, 2),
          other(23, 0),
          other(29, 1),
        ],
      },
      {
        title: `${topic}: questions I get`,
        paragraphs: [b, other(23, 0), a, other(7, 0), c, other(31, 2), other(11, 1), a, other(3, 2)],
      },
      {
        title: `${topic}, again`,
        paragraphs: [c, other(19, 2), b, other(13, 1), a, other(17, 0), other(5, 1), c, other(37, 2)],
      },
    );
  });
  const items: { title: string; url: string; chunks: ChunkDraft[] }[] = [];
  for (const [i, page] of pages.entries()) {
    const url = `https://coach.example/blog/${i}`;
    const html = `<!doctype html><html><head><title>${page.title} | Coach</title></head><body>
      <nav><a href="/">Home</a> <a href="/blog">Blog</a> <a href="/about">About</a></nav>
      <article><h1>${page.title}</h1>${page.paragraphs.map((p) => `<p>${p}</p>`).join('\n')}</article>
      <footer>© Coach. All rights reserved.</footer></body></html>`;
    const page_ = extractHtml(new TextEncoder().encode(html), 'text/html; charset=utf-8', url);
    const chunks = await chunkSections(page_.sections, { url }, { chunkSize: 1000, chunkOverlap: 150 });
    items.push({ title: page_.title ?? page.title, url, chunks });
  }
  await storeItems(db, chatbotId, items, embedder);
  return { chatbotId, pages: pages.length, chunks: items.reduce((n, i) => n + i.chunks.length, 0) };
}

/**
 * Stores seeded items as a chatbot's ready knowledge through the same `storeChunks` as ingestion,
 * embedded with `embedder` when given; then ANALYZE, as autovacuum would (the statistics retrieval
 * reads to tell common words from telling ones).
 */
async function storeItems(
  db: Kysely<Database>,
  chatbotId: string,
  items: { title: string; url: string | null; chunks: ChunkDraft[] }[],
  embedder: Embedder | null,
) {
  const texts = items.flatMap((i) => i.chunks.map((c) => c.content));
  // As ingestion does: the chunks' vectors and their long chunks' windows' (record 0090).
  const embedded = embedder ? await embedChunks(embedder, texts) : null;
  const vectors = embedded?.vectors ?? null;
  let at = 0;
  for (const it of items) {
    const id = randomUUID();
    await knowledgeRepository(db).insert({
      id,
      chatbotId,
      type: it.url ? 'url' : 'file',
      url: it.url,
      fileName: it.url ? null : it.title,
      title: it.title,
    });
    const embeddings = vectors ? vectors.slice(at, at + it.chunks.length) : null;
    const windows = embedded ? embedded.windows.slice(at, at + it.chunks.length) : null;
    at += it.chunks.length;
    await storeChunks(db, {
      itemId: id,
      run: null,
      chunks: it.chunks,
      embeddings,
      windows,
      title: it.title,
      contentHash: `seed:${embedder && embeddings ? embedder.model : 'text'}`,
    });
  }
  await sql`analyze chunks`.execute(db);
}
