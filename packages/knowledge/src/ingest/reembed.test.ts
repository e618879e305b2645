import { storeChunks } from '@fanpilot/core';
import { createDb, type DbHandle, migrateToLatest } from '@fanpilot/db';
import { makePdf, seedCreator } from '@fanpilot/testkit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retrieve } from '../retrieve.ts';
import { chunkSections } from './chunk.ts';
import type { Embedder } from './embeddings.ts';
import { extractPdf } from './extract.ts';
import { createLocalEmbedder, LOCAL_ENCODER_ID } from './local-encoder.ts';
import { embedderOfHash, reembedStale } from './reembed.ts';

/** A stand-in for "the embedder the creator used before": another model of another size. */
const oldEmbedder: Embedder = {
  model: 'old-model-8',
  embedDocuments: async (texts) =>
    texts.map((t) => Array.from({ length: 8 }, (_, i) => ((t.length + i) % 7) + 1)),
  embedQuery: async (t) => Array.from({ length: 8 }, (_, i) => ((t.length + i) % 7) + 1),
};

describe('changing the embedder re-embeds in the background', () => {
  let h: DbHandle;
  let chatbotId: string;
  beforeAll(async () => {
    h = createDb({ dataDir: 'memory://' });
    await migrateToLatest(h.db);
    chatbotId = (await seedCreator(h.db)).chatbotId;
  });
  afterAll(async () => h?.close());

  it('embeds a long PDF with the local encoder (on its threads), and re-embeds items another embedder made while search keeps working', async () => {
    // 50 pages of a training handbook, about 3,400 characters each, as an upload is read and chunked
    // (`pnpm bench` times a 200-page one).
    const pages = Array.from({ length: 50 }, (_, p) =>
      Array.from(
        { length: 40 },
        (_, l) =>
          `Page ${p + 1} line ${l + 1}: week ${(p % 16) + 1} plan, ${['easy run', 'tempo run', 'intervals', 'long run', 'rest day', 'strength work'][(p + l) % 6]} of ${20 + ((p * 7 + l) % 90)} minutes.`,
      ),
    );
    pages[2]![5] = 'The club meets at the old boathouse by the river every Sunday at eight.';
    const pdf = await extractPdf(makePdf(pages, { title: 'Handbook' }));
    const chunks = await chunkSections(pdf.sections, {}, { chunkSize: 1000, chunkOverlap: 150 });
    expect(chunks.length).toBeGreaterThan(120);
    const local = createLocalEmbedder();
    const t0 = performance.now();
    await local.embedDocuments(chunks.map((c) => c.content));
    const seconds = (performance.now() - t0) / 1000;
    console.log(
      `local encoder: a 50-page PDF, ${chunks.length} chunks, embedded in ${seconds.toFixed(1)} s (${((seconds * 1000) / chunks.length).toFixed(1)} ms a chunk)`,
    );
    // Generous: the bench holds the real target (200 pages well under a minute on 2 idle cores).
    expect(seconds).toBeLessThan(60);

    // The same PDF stored with the old embedder, plus a legacy item stored with no vectors.
    const item = await h.db
      .insertInto('knowledge_items')
      .values({
        chatbot_id: chatbotId,
        type: 'file',
        file_name: 'handbook.pdf',
        title: 'Handbook',
        status: 'processing',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await storeChunks(h.db, {
      itemId: item.id,
      run: null,
      chunks: chunks.slice(0, 60),
      embeddings: await oldEmbedder.embedDocuments(chunks.slice(0, 60).map((c) => c.content)),
      title: null,
      contentHash: `abc123:${oldEmbedder.model}`,
    });
    const question = 'Where does the club meet on Sundays?';
    // Before: the local encoder finds no vector of its own, full-text still answers.
    const before = await retrieve(h.db, { chatbotId, question, embedder: local });
    expect(before[0]?.content).toContain('old boathouse');

    expect(await reembedStale(h.db, local)).toEqual({ items: 1, chunks: 60 });
    const stored = await h.db
      .selectFrom('knowledge_items')
      .select(['content_hash', 'status'])
      .where('id', '=', item.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ content_hash: `abc123:${LOCAL_ENCODER_ID}`, status: 'active' });
    expect(embedderOfHash(stored.content_hash)).toBe(LOCAL_ENCODER_ID);
    const dims = await sql<{ d: number }>`select distinct vector_dims(embedding) as d from chunks
      where knowledge_item_id = ${item.id}`.execute(h.db);
    expect(dims.rows).toEqual([{ d: 512 }]);
    // The long chunks' windows (record 0090) are the new embedder's as well.
    const windows = await sql<{ n: number; d: number }>`
      select count(*)::int as n, max(vector_dims(w.embedding)) as d
      from chunk_windows w join chunks c on c.id = w.chunk_id where c.knowledge_item_id = ${item.id}`.execute(
      h.db,
    );
    expect(windows.rows[0]!.n).toBeGreaterThan(60);
    expect(windows.rows[0]!.d).toBe(512);
    // After: the vector list is the local encoder's own, and it answers on its own too.
    const vectorOnly = await retrieve(h.db, {
      chatbotId,
      question,
      embedder: local,
      only: 'vector',
      limit: 3,
    });
    expect(vectorOnly.map((r) => r.content).join(' ')).toContain('old boathouse');
    // Nothing is left to do; the old embedder's vectors are never compared with the new one's.
    expect(await reembedStale(h.db, local)).toEqual({ items: 0, chunks: 0 });
    expect(await retrieve(h.db, { chatbotId, question, embedder: oldEmbedder, only: 'vector' })).toEqual([]);
  }, 180_000);

  it('leaves an item alone that was re-synced or deleted while it was being re-embedded', async () => {
    const item = await h.db
      .insertInto('knowledge_items')
      .values({
        chatbot_id: chatbotId,
        type: 'url',
        url: 'https://coach.example/x',
        title: 'X',
        status: 'processing',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await storeChunks(h.db, {
      itemId: item.id,
      run: null,
      chunks: [{ content: 'Rest days are for walking.', metadata: {} }],
      embeddings: null,
      title: 'X',
      contentHash: 'def456:text',
    });
    const slow: Embedder = {
      ...createLocalEmbedder(),
      embedDocuments: async (texts) => {
        await h.db
          .updateTable('knowledge_items')
          .set({ status: 'processing' })
          .where('id', '=', item.id)
          .execute();
        return createLocalEmbedder().embedDocuments(texts);
      },
    };
    expect(await reembedStale(h.db, slow)).toEqual({ items: 0, chunks: 0 });
    const row = await h.db
      .selectFrom('chunks')
      .select(sql<boolean>`embedding is null`.as('none'))
      .where('knowledge_item_id', '=', item.id)
      .executeTakeFirstOrThrow();
    expect(row.none).toBe(true);
  });
});
