import { storeChunks } from '@fanpilot/core';
import { createDb, type DbHandle, migrateToLatest } from '@fanpilot/db';
import { seedCreator } from '@fanpilot/testkit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sentencesOfText, windowTextsOf } from '../focus.ts';
import { nearestWindowChunkIds, retrieve, retrievePassages } from '../retrieve.ts';
import type { Embedder } from './embeddings.ts';
import { reembedStale } from './reembed.ts';
import { embedChunks } from './windows.ts';

/** A small deterministic embedder: a text's letters counted into `size` buckets, normalised. */
const lettersEmbedder = (model: string, size: number): Embedder => {
  const embed = (t: string) => {
    const v = Array.from({ length: size }, () => 0);
    for (const ch of t.toLowerCase()) if (ch >= 'a' && ch <= 'z') v[(ch.charCodeAt(0) * 7) % size]! += 1;
    const norm = Math.hypot(...v) || 1;
    return v.map((x) => x / norm);
  };
  return { model, embedDocuments: async (texts) => texts.map(embed), embedQuery: async (t) => embed(t) };
};

const LONG =
  'Our studio van is painted bright orange so members can spot it from far away. It seats nine riders ' +
  'and their bags. The second vehicle is a small electric car we use for errands in town. It charges ' +
  'overnight in the garage behind the studio. Every Friday the coach washes both of them by hand. ' +
  'Members are welcome to help and get a free coffee for it. We bought the van second hand from a school. ' +
  'It still has the old school crest on the back door.';

describe("long chunks' windows (record 0090)", () => {
  let h: DbHandle;
  beforeAll(async () => {
    h = createDb({ dataDir: 'memory://' });
    await migrateToLatest(h.db);
  });
  afterAll(async () => h?.close());

  const addItem = async (chatbotId: string, embedder: Embedder, contents: string[], withWindows = true) => {
    const item = await h.db
      .insertInto('knowledge_items')
      .values({ chatbot_id: chatbotId, type: 'url', url: 'https://fleet.example/', status: 'processing' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { vectors, windows } = await embedChunks(embedder, contents);
    await storeChunks(h.db, {
      itemId: item.id,
      run: null,
      chunks: contents.map((content) => ({ content, metadata: {} })),
      embeddings: vectors,
      ...(withWindows ? { windows } : {}),
      title: 'Fleet',
      contentHash: `abc:${embedder.model}`,
    });
    return item.id;
  };
  const windowsOf = async (itemId: string) =>
    (
      await sql<{ n: number; dims: number | null }>`
        select count(*)::int as n, max(vector_dims(w.embedding)) as dims
        from chunk_windows w join chunks c on c.id = w.chunk_id where c.knowledge_item_id = ${itemId}`.execute(
        h.db,
      )
    ).rows[0]!;

  it('only long chunks have windows: their sentences two by two, bounded', () => {
    expect(windowTextsOf('A short post. Two sentences.')).toEqual([]);
    const windows = windowTextsOf(LONG);
    expect(windows.length).toBe(4);
    expect(windows[0]).toBe(
      'Our studio van is painted bright orange so members can spot it from far away. It seats nine riders and their bags.',
    );
    expect(
      windowTextsOf(Array.from({ length: 60 }, (_, i) => `Line ${i} of a long table.`).join('\n')).length,
    ).toBe(16);
  });

  it("are stored with their chunk's chatbot, and a chatbot's search never sees another's", async () => {
    const embedder = lettersEmbedder('letters-8', 8);
    const a = (await seedCreator(h.db)).chatbotId;
    const b = (await seedCreator(h.db)).chatbotId;
    const itemA = await addItem(a, embedder, [LONG, 'A short post about vans.']);
    const itemB = await addItem(b, embedder, [LONG]);
    expect(await windowsOf(itemA)).toEqual({ n: 4, dims: 8 });
    expect(await windowsOf(itemB)).toEqual({ n: 4, dims: 8 });
    const owners = await sql<{ same: boolean }>`
      select bool_and(w.chatbot_id = c.chatbot_id) as same from chunk_windows w join chunks c on c.id = w.chunk_id`.execute(
      h.db,
    );
    expect(owners.rows[0]?.same).toBe(true);
    const item = await h.db
      .selectFrom('knowledge_items')
      .select('windowed')
      .where('id', '=', itemA)
      .executeTakeFirstOrThrow();
    expect(item.windowed).toBe(true);

    const q = await embedder.embedQuery('Where does the electric car charge?');
    const near = await sql<{ id: string }>`${nearestWindowChunkIds(a, q, 10, 40, embedder.model)}`.execute(
      h.db,
    );
    const chunkIdsOf = async (itemId: string) =>
      (await h.db.selectFrom('chunks').select('id').where('knowledge_item_id', '=', itemId).execute()).map(
        (r) => String(r.id),
      );
    const ofA = await chunkIdsOf(itemA);
    expect(near.rows.length).toBe(1);
    expect(near.rows.every((r) => ofA.includes(String(r.id)))).toBe(true);
    const hits = await retrieve(h.db, {
      chatbotId: a,
      question: 'Where does the electric car charge?',
      embedder,
    });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((c) => c.knowledgeItemId === itemA)).toBe(true);
  });

  it("give the second stage their vectors: a short chunk's and a long chunk's windows are not encoded again", async () => {
    const letters = lettersEmbedder('letters-stored', 8);
    const encoded: string[] = [];
    const embedder: Embedder = {
      ...letters,
      embedDocuments: async (texts) => {
        encoded.push(...texts);
        return letters.embedDocuments(texts);
      },
    };
    const short = 'A short post about the orange van and its nine seats.';
    const chatbotId = (await seedCreator(h.db)).chatbotId;
    await addItem(chatbotId, embedder, [LONG, short]);
    encoded.length = 0;
    const passages = await retrievePassages(h.db, {
      chatbotId,
      question: 'How many riders fit in the van?',
      embedder,
    });
    expect(passages.length).toBeGreaterThan(0);
    // The second stage ran: the long chunk's sentences were encoded, its windows and the post were not.
    expect(encoded).toEqual(expect.arrayContaining(sentencesOfText(LONG)));
    for (const text of [...windowTextsOf(LONG), short]) expect(encoded).not.toContain(text);
  });

  it('are added once to items stored before them, and re-embedded when the embedder changes', async () => {
    const old = lettersEmbedder('letters-8', 8);
    const chatbotId = (await seedCreator(h.db)).chatbotId;
    const before = await addItem(chatbotId, old, [LONG], false);
    expect(await windowsOf(before)).toEqual({ n: 0, dims: null });
    // Stored before windows were: the sweep adds them once, with the same embedder.
    const added = await reembedStale(h.db, old);
    expect(added.items).toBeGreaterThanOrEqual(1);
    expect(await windowsOf(before)).toEqual({ n: 4, dims: 8 });
    expect(await reembedStale(h.db, old)).toEqual({ items: 0, chunks: 0 });
    // Another embedder (another size): every window is replaced by the new embedder's.
    const next = lettersEmbedder('letters-6', 6);
    await reembedStale(h.db, next, { items: 100 });
    expect(await windowsOf(before)).toEqual({ n: 4, dims: 6 });
    const sizes = await sql<{
      d: number;
    }>`select distinct vector_dims(embedding) as d from chunk_windows`.execute(h.db);
    expect(sizes.rows).toEqual([{ d: 6 }]);
  });
});
