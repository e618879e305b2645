/**
 * The retrieval benchmark's corpus (bench/retrieval.ts): 100,000 chunks of one chatbot shaped like a
 * creator's library, generated from a seed so every run sees the same corpus.
 * BENCH_CHUNKS (100000), BENCH_QUERIES (200), BENCH_DIMENSIONS (384).
 */
import { ensureVectorIndex } from '@fanpilot/core';
import type { DbHandle } from '@fanpilot/db';
import { seedCreator } from '@fanpilot/testkit';
import { sql } from 'kysely';

export const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 100_000);
export const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
export const DIMENSIONS = Number(process.env.BENCH_DIMENSIONS ?? 384);
const TOPICS = 400;

// A seeded generator: the same corpus every run.
let state = 0x9e3779b9;
const random = () => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 0x1_0000_0000;
};
const gaussian = () => Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());

const syllables = [
  'ka',
  'lo',
  'mi',
  'ru',
  'te',
  'sa',
  'no',
  'vi',
  'de',
  'po',
  'gu',
  'fe',
  'ri',
  'ma',
  'zo',
  'li',
];
const word = () => {
  let w = '';
  const n = 2 + Math.floor(random() * 3);
  for (let i = 0; i < n; i++) w += syllables[Math.floor(random() * syllables.length)];
  return w;
};
const common = Array.from({ length: 5000 }, word);
// Zipf: the k-th common word is drawn with weight 1/k.
const zipfTotal = common.reduce((sum, _, k) => sum + 1 / (k + 1), 0);
const commonWord = () => {
  let r = random() * zipfTotal;
  for (let k = 0; k < common.length; k++) {
    r -= 1 / (k + 1);
    if (r <= 0) return common[k]!;
  }
  return common[common.length - 1]!;
};
const normalize = (v: number[]) => {
  const n = Math.sqrt(v.reduce((a, b) => a + b * b, 0)) || 1;
  return v.map((x) => x / n);
};
const topics = Array.from({ length: TOPICS }, () => ({
  words: Array.from({ length: 40 }, word),
  centre: normalize(Array.from({ length: DIMENSIONS }, gaussian)),
}));

interface Chunk {
  content: string;
  vector: number[];
  topic: number;
}
export const chunks: Chunk[] = [];
for (let i = 0; i < CHUNKS; i++) {
  const topic = Math.floor(random() * TOPICS);
  const t = topics[topic]!;
  const words: string[] = [];
  for (let w = 0; w < 90; w++)
    words.push(random() < 0.3 ? t.words[Math.floor(random() * 40)]! : commonWord());
  chunks.push({
    content: words.join(' '),
    vector: normalize(t.centre.map((x) => x + gaussian() * 0.06)),
    topic,
  });
}
export const questions = Array.from({ length: QUERIES }, () => {
  const c = chunks[Math.floor(random() * chunks.length)]!;
  const words = c.content.split(' ');
  const picked = Array.from({ length: 6 }, () => words[Math.floor(random() * words.length)]!);
  return { text: picked.join(' '), vector: normalize(c.vector.map((x) => x + gaussian() * 0.03)) };
});

/** Loads the corpus as one chatbot's ready knowledge; answers the chatbot's id. */
export async function load(h: DbHandle, vectors: boolean) {
  const b = { id: (await seedCreator(h.db)).chatbotId };
  const perItem = 50;
  for (let start = 0; start < chunks.length; start += 1000) {
    const slice = chunks.slice(start, start + 1000);
    const items = await h.db
      .insertInto('knowledge_items')
      .values(
        Array.from({ length: Math.ceil(slice.length / perItem) }, (_, i) => ({
          chatbot_id: b.id,
          type: 'url' as const,
          url: `https://bench.example/${start + i * perItem}`,
          title: `Page ${start + i * perItem}`,
          chunk_count: Math.min(perItem, slice.length - i * perItem),
          status: vectors ? ('active' as const) : ('completed' as const),
        })),
      )
      .returning('id')
      .execute();
    const rows = slice.map((chunk, i) => ({
      item: items[Math.floor(i / perItem)]!.id,
      ordinal: i % perItem,
      content: chunk.content,
      embedding: vectors ? `[${chunk.vector.join(',')}]` : null,
    }));
    const embedding = vectors ? sql`, embedding` : sql``;
    const value = vectors ? sql`, r.embedding::vector` : sql``;
    await sql`insert into chunks (knowledge_item_id, chatbot_id, ordinal, content, metadata${embedding})
      select r.item, ${b.id}, r.ordinal, r.content, '{}'::jsonb${value}
      from json_to_recordset(${JSON.stringify(rows)}::json) as r(item uuid, ordinal int, content text, embedding text)`.execute(
      h.db,
    );
  }
  if (vectors) await ensureVectorIndex(h.db, DIMENSIONS);
  await sql`analyze`.execute(h.db);
  return b.id;
}
