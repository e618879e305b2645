import type { Database } from '@fanpilot/db';
import { type Kysely, sql } from 'kysely';

export interface RetrievedChunk {
  chunkId: string;
  knowledgeItemId: string;
  content: string;
  /** A title a person understands: the page title, file name or video title. */
  title: string;
  /** Where it came from: URL, file name, or video URL (with a timestamp when known). */
  source: string;
  metadata: Record<string, unknown>;
  score: number;
}

export interface RetrieveOptions {
  chatbotId: string;
  question: string;
  limit?: number;
}

/**
 * The best chunks of a chatbot's ready knowledge for a question, by full-text rank.
 * (Vector similarity, where the `vector` extension and embeddings exist, is fused in by rank.)
 */
export async function retrieve(db: Kysely<Database>, options: RetrieveOptions): Promise<RetrievedChunk[]> {
  const limit = options.limit ?? 5;
  const question = options.question.trim();
  if (!question) return [];
  const rows = await db
    .selectFrom('chunks')
    .innerJoin('knowledge_items', 'knowledge_items.id', 'chunks.knowledge_item_id')
    .select([
      'chunks.id as chunkId',
      'chunks.knowledge_item_id as knowledgeItemId',
      'chunks.content',
      'chunks.metadata',
      'knowledge_items.title',
      'knowledge_items.url',
      'knowledge_items.youtube_url',
      'knowledge_items.file_name',
      sql<number>`ts_rank_cd(chunks.tsv, websearch_to_tsquery('english', ${question}))`.as('score'),
    ])
    .where('chunks.chatbot_id', '=', options.chatbotId)
    .where('knowledge_items.status', 'in', ['completed', 'active'])
    .where(sql<boolean>`chunks.tsv @@ websearch_to_tsquery('english', ${question})`)
    .orderBy('score', 'desc')
    .orderBy('chunks.id', 'asc')
    .limit(limit)
    .execute();
  // websearch_to_tsquery ANDs the words; a question rarely shares all of them, so fall back to OR.
  const hits = rows.length > 0 ? rows : await anyWords(db, options.chatbotId, question, limit);
  return hits.map((r) => ({
    chunkId: String(r.chunkId),
    knowledgeItemId: r.knowledgeItemId,
    content: r.content,
    title: r.title ?? r.file_name ?? r.url ?? r.youtube_url ?? 'Unknown Source',
    source: r.url ?? r.youtube_url ?? r.file_name ?? '',
    metadata: r.metadata,
    score: Number(r.score),
  }));
}

async function anyWords(db: Kysely<Database>, chatbotId: string, question: string, limit: number) {
  const words = question
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu)
    ?.filter((w) => w.length > 1)
    .slice(0, 30);
  if (!words?.length) return [];
  const query = words.join(' | ');
  return db
    .selectFrom('chunks')
    .innerJoin('knowledge_items', 'knowledge_items.id', 'chunks.knowledge_item_id')
    .select([
      'chunks.id as chunkId',
      'chunks.knowledge_item_id as knowledgeItemId',
      'chunks.content',
      'chunks.metadata',
      'knowledge_items.title',
      'knowledge_items.url',
      'knowledge_items.youtube_url',
      'knowledge_items.file_name',
      sql<number>`ts_rank_cd(chunks.tsv, to_tsquery('english', ${query}))`.as('score'),
    ])
    .where('chunks.chatbot_id', '=', chatbotId)
    .where('knowledge_items.status', 'in', ['completed', 'active'])
    .where(sql<boolean>`chunks.tsv @@ to_tsquery('english', ${query})`)
    .orderBy('score', 'desc')
    .orderBy('chunks.id', 'asc')
    .limit(limit)
    .execute();
}
