import { randomUUID } from 'node:crypto';
import { type ChunkDraft, knowledgeRepository, storeChunks } from '@fanpilot/core';
import type { Database } from '@fanpilot/db';
import { makePdf, seedCreator } from '@fanpilot/testkit';
import { type Kysely, sql } from 'kysely';
import { chunkSections } from '../src/ingest/chunk.ts';
import type { Embedder } from '../src/ingest/embeddings.ts';
import { extractPdf } from '../src/ingest/extract.ts';
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

  const texts = items.flatMap((i) => i.chunks.map((c) => c.content));
  const vectors = embedder ? await embedder.embedDocuments(texts) : null;
  let at = 0;
  for (const it of items) {
    const row = { id: randomUUID() };
    await knowledgeRepository(db).insert({
      id: row.id,
      chatbotId,
      type: it.url ? 'url' : 'file',
      url: it.url,
      fileName: it.url ? null : it.title,
      title: it.title,
    });
    const embeddings = vectors ? vectors.slice(at, at + it.chunks.length) : null;
    at += it.chunks.length;
    await storeChunks(db, {
      itemId: row.id,
      run: null,
      chunks: it.chunks,
      embeddings,
      title: it.title,
      contentHash: `seed:${embedder && embeddings ? embedder.model : 'text'}`,
    });
  }
  // As autovacuum would: the statistics retrieval reads to tell common words from telling ones.
  await sql`analyze chunks`.execute(db);
  return { chatbotId, creatorId, posts };
}
