import { storeChunks } from '@fanpilot/core';
import { createDb, type DbHandle, migrateToLatest } from '@fanpilot/db';
import { seedCreator } from '@fanpilot/testkit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Embedder } from './ingest/embeddings.ts';
import { nearestChunkIds, retrieve, tellingLexemes } from './retrieve.ts';

/** What keeps search fast in a long history: the vector index, and not ranking every common word. */
describe('retrieval in a long history (PGlite + pgvector)', () => {
  let h: DbHandle;
  let chatbotId: string;
  const dims = 16;
  const vectorOf = (i: number) => Array.from({ length: dims }, (_, d) => Math.sin(i * 0.37 + d * 1.3));
  beforeAll(async () => {
    h = createDb({ dataDir: 'memory://' });
    await migrateToLatest(h.db);
    const b = { id: (await seedCreator(h.db)).chatbotId };
    chatbotId = b.id;
    // 1,200 lessons that all mention the guitar; one of them holds the capo trick.
    for (let batch = 0; batch < 4; batch++) {
      const item = await h.db
        .insertInto('knowledge_items')
        .values({
          chatbot_id: b.id,
          type: 'url',
          url: `https://coach.example/lessons-${batch}`,
          title: `Lessons ${batch}`,
          status: 'processing',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const chunks = Array.from({ length: 300 }, (_, i) => {
        const n = batch * 300 + i;
        return {
          content:
            n === 777
              ? 'Guitar lesson 777: put the capo on the second fret for the trick in this song.'
              : `Guitar lesson ${n}: practise scales slowly and keep the guitar in tune, exercise ${n}.`,
          metadata: {},
        };
      });
      expect(
        await storeChunks(h.db, {
          itemId: item.id,
          run: null,
          chunks,
          embeddings: chunks.map((_, i) => vectorOf(batch * 300 + i)),
          title: null,
        }),
      ).toBe('stored');
    }
    await sql`analyze chunks`.execute(h.db);
  });
  afterAll(async () => h?.close());

  it('builds an HNSW index for the embeddings’ size when the first ones are stored', async () => {
    const r = await sql<{ indexdef: string }>`
      select indexdef from pg_indexes where tablename = 'chunks' and indexname = ${`chunks_embedding_hnsw_${dims}`}`.execute(
      h.db,
    );
    expect(r.rows[0]?.indexdef).toMatch(
      /USING hnsw .*vector_cosine_ops.*WHERE \(vector_dims\(embedding\) = 16\)/,
    );
  });

  it('asks for nearest chunks in the index’s own terms, so the planner can use it', async () => {
    const plan = await h.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const r = await sql<
        Record<string, string>
      >`explain ${nearestChunkIds(chatbotId, vectorOf(500), 10)}`.execute(trx);
      return r.rows.map((row) => Object.values(row).join(' ')).join('\n');
    });
    expect(plan).toContain(`chunks_embedding_hnsw_${dims}`);
  });

  it('finds the same nearest chunks through the index as by exact search', async () => {
    const embedder: Embedder = {
      model: 't',
      embedDocuments: async () => [],
      embedQuery: async () => vectorOf(500),
    };
    const question = 'zzzz'; // no full-text match: the vector list alone
    const viaIndex = await retrieve(h.db, { chatbotId, question, embedder, limit: 10 });
    const exact = await retrieve(h.db, { chatbotId, question, embedder, limit: 10, exact: true });
    expect(viaIndex.map((x) => x.chunkId)).toEqual(exact.map((x) => x.chunkId));
    expect(viaIndex[0]?.content).toContain('exercise 500');
  });

  it('leaves a word found in most of a large library out of the any-word ranking, not out of the answer', async () => {
    const lexemes = ['guitar', 'capo', 'fret'];
    expect(await tellingLexemes(h.db, chatbotId, lexemes)).toEqual({
      lexemes: ['capo', 'fret'],
      operator: '|',
    });
    // When every word is common, the rarest ones together.
    expect(await tellingLexemes(h.db, chatbotId, ['guitar', 'lesson', 'tune'])).toMatchObject({
      operator: '&',
    });
    const hits = await retrieve(h.db, {
      chatbotId,
      question: 'Where does the capo go on my guitar?',
      embedder: null,
    });
    expect(hits[0]?.content).toContain('capo on the second fret');
  });
});
