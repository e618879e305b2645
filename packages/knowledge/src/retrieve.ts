import { hasVectorColumn, typedEmbedding } from '@fanpilot/core';
import type { Database } from '@fanpilot/db';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { type Embedder, vectorLiteral } from './ingest/embeddings.ts';

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
  /**
   * Exact nearest neighbours (a scan) instead of the HNSW index: for measuring the index's recall
   * (`pnpm bench`); answers never need it.
   */
  exact?: boolean;
}

/**
 * How many passages go to the model with a question. Tuned on the look-alike set
 * (the test kit's lookalikes.ts): five keeps the passage with the answer among near-duplicates of its topic.
 */
export const PASSAGES_FOR_MODEL = 5;

/** Reciprocal rank fusion's damping constant (the usual 60). */
const RRF_K = 60;

/**
 * The best chunks of a chatbot's ready knowledge for a question: full-text rank, fused by reciprocal
 * rank with vector similarity where the `vector` column and an embedder exist.
 */
export async function retrieve(db: Kysely<Database>, options: RetrieveOptions): Promise<RetrievedChunk[]> {
  const limit = options.limit ?? PASSAGES_FOR_MODEL;
  const question = options.question.trim();
  if (!question) return [];
  const pool = Math.max(limit * 4, 20);
  const [text, vector] = await Promise.all([
    fullText(db, options.chatbotId, question, pool),
    similar(db, options.chatbotId, question, pool, options.embedder ?? null, options.exact === true),
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

type Row = Awaited<ReturnType<typeof matching>>[number];

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

/** Chunks matching a tsquery, best rank first; with `cap`, ranking at most that many matches. */
function matching(
  db: Kysely<Database>,
  chatbotId: string,
  tsquery: RawBuilder<unknown>,
  limit: number,
  cap?: number,
) {
  let query = readyChunks(db, chatbotId)
    .select(sql<number>`ts_rank_cd(chunks.tsv, ${tsquery})`.as('score'))
    .where(sql<boolean>`chunks.tsv @@ ${tsquery}`);
  if (cap) {
    query = query.where('chunks.id', 'in', (eb) =>
      eb
        .selectFrom('chunks as c')
        .select('c.id')
        .where('c.chatbot_id', '=', chatbotId)
        .where(sql<boolean>`c.tsv @@ ${tsquery}`)
        .limit(cap),
    );
  }
  return query.orderBy('score', 'desc').orderBy('chunks.id', 'asc').limit(limit).execute();
}

async function fullText(db: Kysely<Database>, chatbotId: string, question: string, limit: number) {
  const lexemes = await questionLexemes(db, question);
  if (lexemes.length === 0) return [];
  const telling = await tellingLexemes(db, chatbotId, lexemes);
  // Passages with every word of the question first, then those with its telling words: a look-alike
  // that repeats the question's words must not crowd out the passage that answers it in other words.
  const [all, some] = await Promise.all([
    lexemes.length > 1 ? matching(db, chatbotId, tsquery(lexemes, '&'), limit) : Promise.resolve([]),
    matching(db, chatbotId, tsquery(telling.lexemes, telling.operator), limit, RANKED_CHUNKS_CAP),
  ]);
  const seen = new Set(all.map((r) => String(r.chunkId)));
  return [...all, ...some.filter((r) => !seen.has(String(r.chunkId)))].slice(0, limit);
}

/** The question's words as the full-text index stores them (English stemming, no stop words). */
async function questionLexemes(db: Kysely<Database>, question: string): Promise<string[]> {
  const r = await sql<{ lexemes: string[] | null }>`
    select array(select lexeme from unnest(to_tsvector('english', ${question.slice(0, 2000)}))) as lexemes`.execute(
    db,
  );
  return (r.rows[0]?.lexemes ?? []).slice(0, 30);
}

/** A tsquery of already-normalized lexemes (each quoted, so no character is read as an operator). */
const tsquery = (lexemes: string[], operator: '&' | '|') =>
  sql`(select to_tsquery('simple', string_agg(quote_literal(l), ${` ${operator} `})) from unnest(${lexemes}::text[]) as l)`;

/**
 * A question word expected in more than this many of a chatbot's chunks says little about which one
 * answers, and ranking every chunk it matches is what makes search slow in a long history. Such
 * words still count in the every-word query; small libraries never reach the limit.
 */
const COMMON_LEXEME_CHUNKS = 500;
/** About how many chunks the any-word query may rank; past it, it asks for the rarest words together. */
const RANKED_CHUNKS = 2000;
/** A hard cap on the chunks the any-word query ranks, whatever the estimates said. */
const RANKED_CHUNKS_CAP = 5000;
const STATS_TTL_MS = 10 * 60_000;

const lexemeStats = new WeakMap<object, { at: number; shares: Promise<Map<string, number>> }>();
const chatbotSizes = new WeakMap<object, Map<string, { at: number; chunks: Promise<number> }>>();

/**
 * How common each frequent lexeme is, as a share of all chunks, from PostgreSQL's own statistics
 * on the full-text column (ANALYZE keeps the most common lexemes and their shares). Empty before
 * the first ANALYZE.
 */
function commonLexemes(db: Kysely<Database>): Promise<Map<string, number>> {
  const cached = lexemeStats.get(db);
  if (cached && Date.now() - cached.at < STATS_TTL_MS) return cached.shares;
  const shares = sql<{ elems: string[] | null; freqs: number[] | null }>`
    select most_common_elems::text::text[] as elems, most_common_elem_freqs as freqs
    from pg_stats where tablename = 'chunks' and attname = 'tsv'
    order by schemaname = current_schema() desc limit 1`
    .execute(db)
    .then((r) => {
      const row = r.rows[0];
      return new Map((row?.elems ?? []).map((lexeme, i) => [lexeme, Number(row?.freqs?.[i] ?? 0)]));
    })
    .catch(() => new Map<string, number>());
  lexemeStats.set(db, { at: Date.now(), shares });
  return shares;
}

/** How many chunks a chatbot has (from its items' counts), cached like the statistics. */
function chatbotChunks(db: Kysely<Database>, chatbotId: string): Promise<number> {
  let sizes = chatbotSizes.get(db);
  if (!sizes) {
    sizes = new Map();
    chatbotSizes.set(db, sizes);
  }
  const cached = sizes.get(chatbotId);
  if (cached && Date.now() - cached.at < STATS_TTL_MS) return cached.chunks;
  const chunks = db
    .selectFrom('knowledge_items')
    .select(sql<string>`coalesce(sum(chunk_count), 0)`.as('n'))
    .where('chatbot_id', '=', chatbotId)
    .executeTakeFirst()
    .then((r) => Number(r?.n ?? 0))
    .catch(() => 0);
  if (sizes.size > 10_000) sizes.clear();
  sizes.set(chatbotId, { at: Date.now(), chunks });
  return chunks;
}

/**
 * The words the any-word query ranks by: the question's rarest lexemes (by their share of all
 * chunks times the chatbot's size) while each is expected in at most COMMON_LEXEME_CHUNKS chunks
 * and together in about RANKED_CHUNKS. When every word is common, the rarest few together ('&'),
 * as many as it takes to expect at most RANKED_CHUNKS matches.
 */
export async function tellingLexemes(
  db: Kysely<Database>,
  chatbotId: string,
  lexemes: string[],
): Promise<{ lexemes: string[]; operator: '|' | '&' }> {
  const [shares, size] = await Promise.all([commonLexemes(db), chatbotChunks(db, chatbotId)]);
  if (size <= COMMON_LEXEME_CHUNKS) return { lexemes, operator: '|' };
  const ranked = [...new Set(lexemes)]
    .map((lexeme) => ({ lexeme, share: shares.get(lexeme) ?? 0 }))
    .sort((a, b) => a.share - b.share);
  const telling: string[] = [];
  let expected = 0;
  for (const { lexeme, share } of ranked) {
    const rows = share * size;
    if (rows > COMMON_LEXEME_CHUNKS || (telling.length > 0 && expected + rows > RANKED_CHUNKS)) break;
    telling.push(lexeme);
    expected += rows;
  }
  if (telling.length > 0) return { lexemes: telling, operator: '|' };
  let together = 1;
  let rows = size;
  for (const { share } of ranked) {
    rows *= share;
    if (rows <= RANKED_CHUNKS || together === ranked.length) break;
    together++;
  }
  return { lexemes: ranked.slice(0, together).map((r) => r.lexeme), operator: '&' };
}

/**
 * A chatbot's ready chunks nearest to a vector (cosine), through the HNSW index of the vector's size:
 * the cast and the size condition are the index's own expression and predicate.
 */
export function nearestChunks(db: Kysely<Database>, chatbotId: string, query: number[], limit: number) {
  const dimensions = query.length;
  const embedding = typedEmbedding(dimensions);
  const target = sql`${vectorLiteral(query)}::vector(${sql.lit(dimensions)})`;
  return readyChunks(db, chatbotId)
    .select(sql<number>`1 - (${embedding} <=> ${target})`.as('score'))
    .where(sql<boolean>`embedding is not null and vector_dims(embedding) = ${sql.lit(dimensions)}`)
    .orderBy(sql`${embedding} <=> ${target}`)
    .orderBy('chunks.id', 'asc')
    .limit(limit);
}

/** Nearest chunks by cosine distance; empty when vectors are unavailable or embedding fails. */
async function similar(
  db: Kysely<Database>,
  chatbotId: string,
  question: string,
  limit: number,
  embedder: Embedder | null,
  exact: boolean,
): Promise<Row[]> {
  if (!embedder || !(await hasVectorColumn(db))) return [];
  let query: number[];
  try {
    query = await embedder.embedQuery(question);
  } catch {
    return [];
  }
  if (query.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    // The HNSW index (packages/core/src/vector-index.ts) is walked further when the chatbot and status filters
    // drop its nearest rows, instead of answering with fewer than asked for.
    await sql`select set_config('hnsw.iterative_scan', 'relaxed_order', true),
      set_config('hnsw.ef_search', ${String(Math.max(40, limit * 2))}, true),
      set_config('enable_indexscan', ${exact ? 'off' : 'on'}, true)`.execute(trx);
    const rows = await nearestChunks(trx, chatbotId, query, limit).execute();
    // relaxed_order may hand rows back slightly out of order.
    return rows.sort((a, b) => Number(b.score) - Number(a.score) || Number(a.chunkId) - Number(b.chunkId));
  });
}
