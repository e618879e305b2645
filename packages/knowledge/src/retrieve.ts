import type { Database } from '@fanpilot/db';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { createEmbedder, type Embedder, vectorLiteral } from './ingest/embeddings.ts';
import { hasVectorColumn } from './ingest/store.ts';

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
  /**
   * Embeds the question for vector similarity. Defaults to OpenAI when OPENAI_API_KEY is set in the
   * environment; null turns vectors off. Vectors are used only where the `vector` column exists.
   */
  embedder?: Embedder | null;
}

/** Reciprocal rank fusion's damping constant (the usual 60). */
const RRF_K = 60;

let envEmbedder: { key: string; embedder: Embedder | null } | undefined;
function defaultEmbedder(): Embedder | null {
  const key = `${process.env.OPENAI_API_KEY ?? ''}|${process.env.OPENAI_BASE_URL ?? ''}|${process.env.EMBEDDING_MODEL ?? ''}`;
  if (envEmbedder?.key !== key) envEmbedder = { key, embedder: createEmbedder(process.env) };
  return envEmbedder.embedder;
}

/**
 * The best chunks of a chatbot's ready knowledge for a question: full-text rank, fused by reciprocal
 * rank with vector similarity where the `vector` column and an embedder exist.
 */
export async function retrieve(db: Kysely<Database>, options: RetrieveOptions): Promise<RetrievedChunk[]> {
  const limit = options.limit ?? 5;
  const question = options.question.trim();
  if (!question) return [];
  const pool = Math.max(limit * 4, 20);
  const [text, vector] = await Promise.all([
    fullText(db, options.chatbotId, question, pool),
    similar(
      db,
      options.chatbotId,
      question,
      pool,
      options.embedder === undefined ? defaultEmbedder() : options.embedder,
    ),
  ]);
  if (vector.length === 0) return text.slice(0, limit).map(toChunk);
  const fused = new Map<string, { row: Row; score: number }>();
  for (const list of [text, vector]) {
    list.forEach((row, rank) => {
      const id = String(row.chunkId);
      const entry = fused.get(id) ?? { row, score: 0 };
      entry.score += 1 / (RRF_K + rank + 1);
      fused.set(id, entry);
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || Number(a.row.chunkId) - Number(b.row.chunkId))
    .slice(0, limit)
    .map(({ row, score }) => toChunk({ ...row, score }));
}

type Row = Awaited<ReturnType<typeof anyWords>>[number];

const toChunk = (r: Row): RetrievedChunk => ({
  chunkId: String(r.chunkId),
  knowledgeItemId: r.knowledgeItemId,
  content: r.content,
  title: r.title ?? r.file_name ?? r.url ?? r.youtube_url ?? 'Unknown Source',
  source:
    (typeof r.metadata?.timestampUrl === 'string' ? r.metadata.timestampUrl : null) ??
    (typeof r.metadata?.url === 'string' ? r.metadata.url : null) ??
    r.url ??
    r.youtube_url ??
    r.file_name ??
    '',
  metadata: r.metadata,
  score: Number(r.score),
});

/** A chatbot's chunks whose item is ready, with what a source line needs. */
function readyChunks(db: Kysely<Database>, chatbotId: string) {
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
    ])
    .where('chunks.chatbot_id', '=', chatbotId)
    .where('knowledge_items.status', 'in', ['completed', 'active']);
}

/** Chunks matching a tsquery, best rank first. */
function matching(db: Kysely<Database>, chatbotId: string, tsquery: RawBuilder<unknown>, limit: number) {
  return readyChunks(db, chatbotId)
    .select(sql<number>`ts_rank_cd(chunks.tsv, ${tsquery})`.as('score'))
    .where(sql<boolean>`chunks.tsv @@ ${tsquery}`)
    .orderBy('score', 'desc')
    .orderBy('chunks.id', 'asc')
    .limit(limit)
    .execute();
}

async function fullText(db: Kysely<Database>, chatbotId: string, question: string, limit: number) {
  const rows = await matching(db, chatbotId, sql`websearch_to_tsquery('english', ${question})`, limit);
  // websearch_to_tsquery ANDs the words; a question rarely shares all of them, so fall back to OR.
  return rows.length > 0 ? rows : anyWords(db, chatbotId, question, limit);
}

/** Nearest chunks by cosine distance; empty when vectors are unavailable or embedding fails. */
async function similar(
  db: Kysely<Database>,
  chatbotId: string,
  question: string,
  limit: number,
  embedder: Embedder | null,
): Promise<Row[]> {
  if (!embedder || !(await hasVectorColumn(db))) return [];
  let query: number[];
  try {
    query = await embedder.embedQuery(question);
  } catch {
    return [];
  }
  const literal = vectorLiteral(query);
  return readyChunks(db, chatbotId)
    .select(sql<number>`1 - (embedding <=> ${literal}::vector)`.as('score'))
    .where(sql<boolean>`embedding is not null and vector_dims(embedding) = ${query.length}`)
    .orderBy(sql`embedding <=> ${literal}::vector`)
    .orderBy('chunks.id', 'asc')
    .limit(limit)
    .execute();
}

async function anyWords(db: Kysely<Database>, chatbotId: string, question: string, limit: number) {
  const words = question
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu)
    ?.filter((w) => w.length > 1)
    .slice(0, 30);
  if (!words?.length) return [];
  return matching(db, chatbotId, sql`to_tsquery('english', ${words.join(' | ')})`, limit);
}
