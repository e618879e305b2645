import { hasVectorColumn, typedEmbedding } from '@fanpilot/core';
import type { Database } from '@fanpilot/db';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import {
  FOCUS_CHARS,
  focusCandidates,
  rememberVectors,
  shortFocusText,
  unknownTexts,
  windowTextsOf,
} from './focus.ts';
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
  /** Where the chunk stands in its source (0 first). */
  ordinal?: number;
  score: number;
  /**
   * A passage joined from neighbouring chunks: the best chunk's own text, which a citation quotes
   * (its page and place are that chunk's); unset for a single chunk, whose `content` it is.
   */
  citedContent?: string;
}

export interface RetrieveOptions {
  chatbotId: string;
  question: string;
  /**
   * The fan's recent turns before this question, oldest first: a follow-up ("How much whey goes in
   * it?") is searched together with them (at half weight), so "it" finds the recipe talked about.
   */
  context?: string[];
  limit?: number;
  /**
   * Embeds the question for vector similarity; null turns vectors off. Vectors are used only where
   * the `vector` column exists, and only those its embedder made (`embedderFor(env)` in answers).
   */
  embedder?: Embedder | null;
  /**
   * Exact nearest neighbours (a scan) instead of the HNSW index: for measuring the index's recall
   * (`pnpm bench`); answers never need it.
   */
  exact?: boolean;
  /** Test and bench aid: rank by one list alone, to compare the fusion with it. */
  only?: 'vector' | 'text';
}

/**
 * How many chunks `retrieve` answers by default. The prompt is filled by its character budget
 * instead (`retrievePassages`); this is the short list of other callers.
 */
export const PASSAGES_FOR_MODEL = 5;

/**
 * The prompt's knowledge budget: the characters of creator material one question may bring to the
 * model (the knowledge block of packages/answers/src/prompt.ts), filled with the best passages.
 */
export const KNOWLEDGE_BUDGET_CHARS = 8_000;

/** Chunks ranked before the budget is filled (the budget rarely holds more than a dozen). */
const CANDIDATES = 24;
/**
 * Chunks ranked before the second stage (focus.ts) orders them again and the budget is filled:
 * focused on their best sentences, long chunks take less room, so more of them fit.
 */
const FOCUS_CANDIDATES = 48;

/**
 * How far the full-text list can move a passage, as a share of the vector list's whole range
 * (min-max normalised similarity, 0…1), when it matched every telling word of the question. It is
 * scaled by its own confidence (see `fuse`), so a list that matched only look-alike words barely
 * moves anything and cannot outvote a confident vector ranking.
 */
const TEXT_WEIGHT = 0.5;

/**
 * Coverage is raised to this power: holding every telling word counts far more than holding most
 * of them (a look-alike shares the topic's words, rarely the one that names the answer).
 */
const COVERAGE_POWER = 3;

/** Weight of the earlier turns' words and meaning against the question's own (1). */
const CONTEXT_WEIGHT = 0.5;

/**
 * The best chunks of a chatbot's ready knowledge for a question. With vectors (an embedder and the
 * `vector` column): vector similarity and full-text rank fused by their scores (`fuse`); without,
 * full-text rank alone.
 */
export async function retrieve(db: Kysely<Database>, options: RetrieveOptions): Promise<RetrievedChunk[]> {
  const limit = options.limit ?? PASSAGES_FOR_MODEL;
  const question = options.question.trim();
  if (!question) return [];
  const context = (options.context ?? [])
    .map((t) => t.trim())
    .filter(Boolean)
    .join('\n')
    .slice(-2000);
  // Each list's pool: twice the chunks asked for, but no more than 48 (the second stage's 48
  // candidates come from pools of 48, as the 24 before did: a pool of 96 cost the bench 15× more).
  const pool = Math.max(Math.min(limit * 2, FOCUS_CANDIDATES), limit, 40);
  if (!context) return readWhole(db, (await ranked(db, options, question, pool)).slice(0, limit));
  // A follow-up: the question's own ranking, plus the earlier turns' ranking at half weight, each
  // min-max normalised, so "it" finds what the conversation was about.
  const [own, earlier] = await Promise.all([
    ranked(db, options, question, pool),
    ranked(db, options, context, pool),
  ]);
  const combined = new Map<string, { row: Row; score: number }>();
  for (const [list, weight] of [
    [own, 1],
    [earlier, CONTEXT_WEIGHT],
  ] as const) {
    const top = list[0]?.score ?? 0;
    const bottom = list[list.length - 1]?.score ?? 0;
    const range = top - bottom;
    for (const { row, score } of list) {
      const id = String(row.chunkId);
      const entry = combined.get(id) ?? { row, score: 0 };
      entry.score += weight * (range > 1e-9 ? (score - bottom) / range : 1);
      combined.set(id, entry);
    }
  }
  return readWhole(
    db,
    [...combined.values()]
      .sort((a, b) => b.score - a.score || Number(a.row.chunkId) - Number(b.row.chunkId))
      .slice(0, limit),
  );
}

/**
 * The chunks a ranking chose, read whole (their text, metadata and item), in its order: only these
 * are, not every chunk the lists held (a chunk deleted meanwhile is left out).
 */
async function readWhole(
  db: Kysely<Database>,
  chosen: { row: Row; score: number }[],
): Promise<RetrievedChunk[]> {
  if (chosen.length === 0) return [];
  const r = await sql<Whole>`
    select chunks.id as "chunkId", chunks.content, chunks.metadata, k.title, k.url, k.youtube_url, k.file_name
    from chunks join knowledge_items k on k.id = chunks.knowledge_item_id
    where chunks.id = any(${chosen.map(({ row }) => row.chunkId)}::bigint[])`.execute(db);
  const whole = new Map(r.rows.map((w) => [String(w.chunkId), w]));
  return chosen.flatMap(({ row, score }) => {
    const w = whole.get(row.chunkId);
    return w ? [toChunk(row, w, score)] : [];
  });
}

/**
 * One text's ranking: fused, or one list alone (text without vectors, or as `only` asks). Its
 * full-text and vector lists come from one statement (`rankedLists`), once the question's words
 * (one statement) and its vector (the embedder) are known.
 */
async function ranked(
  db: Kysely<Database>,
  options: RetrieveOptions,
  question: string,
  pool: number,
): Promise<{ row: Row; score: number }[]> {
  const embedder = options.only === 'text' ? null : (options.embedder ?? null);
  const [terms, vector] = await Promise.all([
    options.only === 'vector' ? Promise.resolve(null) : textTerms(db, options.chatbotId, question),
    questionVector(db, embedder, question),
  ]);
  const lists = await rankedLists(db, {
    chatbotId: options.chatbotId,
    terms,
    vector:
      vector && embedder
        ? { query: vector, embedderId: embedder.model, efSearch: Math.max(80, pool + 32) }
        : null,
    windows: true,
    limit: pool,
    exact: options.exact === true,
  });
  if (!terms) {
    // By meaning alone: the chunks' vectors, with their windows' where they have them.
    if (lists.windows.length === 0) return lists.vector.map((row) => ({ row, score: row.score }));
    return fuse(lists.vector, { rows: [], coverage: () => 0 }, lists.windows);
  }
  const text = textList(lists, terms, pool);
  if (lists.vector.length === 0) return text.rows.map((row) => ({ row, score: row.score }));
  return fuse(lists.vector, text, lists.windows);
}

/**
 * Weight of the window list (a long chunk by its best two-sentence window's similarity, min-max
 * normalised like the vector list) beside the chunk-vector list's 1 (record 0090); the two are
 * averaged, so the meaning part of the fused score keeps its 0…1 range.
 */
const WINDOW_WEIGHT = 1;
/** Windows read from their index per chunk a list keeps: several of one chunk's windows are near. */
const WINDOW_ROWS_PER_CHUNK = 4;

/**
 * Fuses the vector list with the full-text list by score, never by rank alone:
 *
 * - the vector list's cosine similarities are min-max normalised over its pool (best 1, worst 0);
 * - each full-text row scores its coverage of the question: the share of the question's words it
 *   holds, each weighted by how rare it is among the chatbot's chunks (IDF), so a row that matched
 *   only the topic's common words scores little;
 * - the full-text list as a whole weighs by its confidence, its best coverage squared: a list that
 *   matched nothing telling hardly counts, one whose best row holds every telling word counts fully.
 *
 * fused = vector + TEXT_WEIGHT × confidence × coverage. A row on one list only scores 0 on the other.
 * Where long chunks have windows (record 0090), `vector` is the mean of the chunk's normalised
 * similarity and its best window's (each list min-max normalised over its own pool).
 */
function fuse(vector: Row[], text: TextList, windows: Row[] = []): { row: Row; score: number }[] {
  const fused = new Map<string, { row: Row; score: number }>();
  // By meaning: the chunk's normalised similarity and its best window's, averaged (weights 1 and
  // WINDOW_WEIGHT), so the meaning part keeps its 0…1 range beside the full-text list's.
  const meaning = windows.length > 0 ? 1 + WINDOW_WEIGHT : 1;
  for (const [list, weight] of [
    [vector, 1 / meaning],
    [windows, WINDOW_WEIGHT / meaning],
  ] as const) {
    const top = Number(list[0]?.score ?? 0);
    const bottom = Number(list[list.length - 1]?.score ?? 0);
    const range = top - bottom;
    for (const row of list) {
      const id = String(row.chunkId);
      const entry = fused.get(id) ?? { row, score: 0 };
      entry.score += weight * (range > 1e-9 ? (Number(row.score) - bottom) / range : 1);
      fused.set(id, entry);
    }
  }
  const confidence = text.rows.reduce((best, row) => Math.max(best, text.coverage(row)), 0) ** 2;
  for (const row of text.rows) {
    const id = String(row.chunkId);
    const entry = fused.get(id) ?? { row, score: 0 };
    entry.score += TEXT_WEIGHT * confidence * text.coverage(row) ** COVERAGE_POWER;
    fused.set(id, entry);
  }
  return [...fused.values()].sort(
    (a, b) => b.score - a.score || Number(a.row.chunkId) - Number(b.row.chunkId),
  );
}

/** A passage for the prompt: one chunk, or neighbouring chunks of one source joined. */
export interface Passage extends RetrievedChunk {
  /** The chunks it was joined from, in source order. */
  chunkIds: string[];
}

/**
 * The passages that go to the model with a question: the best chunks while they fit the knowledge
 * budget (KNOWLEDGE_BUDGET_CHARS), neighbouring chunks of one source joined into one passage (their
 * overlap said once), best passage first.
 */
export async function retrievePassages(
  db: Kysely<Database>,
  options: RetrieveOptions & { budgetChars?: number },
): Promise<Passage[]> {
  const budget = options.budgetChars ?? KNOWLEDGE_BUDGET_CHARS;
  const embedder = options.only ? null : (options.embedder ?? null);
  // A follow-up is ranked with the conversation's turns (`retrieve`), which the question's own
  // sentences would overrule: it keeps the first stage alone.
  const followUp = (options.context ?? []).some((t) => t.trim());
  if (!embedder || followUp) {
    return packPassages(await retrieve(db, { ...options, limit: options.limit ?? CANDIDATES }), budget);
  }
  // With vectors, a second stage (focus.ts, record 0080): more candidates, ranked again by their
  // best sentence, long ones cut to the sentences around it, so more of them fit the budget.
  const ranked = await retrieve(db, { ...options, limit: options.limit ?? FOCUS_CANDIDATES });
  const question = options.question.trim();
  await rememberStoredVectors(db, embedder, ranked);
  const focused = await focusCandidates(embedder, question, ranked);
  const whole = new Map(
    focused.flatMap((c) => (c.wholeContent ? [[c.chunkId, c.wholeContent] as const] : [])),
  );
  // The prompt reads the focused sentences; a citation still quotes the chunk's own whole text, whose
  // offsets its metadata holds (a video's caption moments, a page's place).
  return packPassages(
    focused.map(({ wholeContent, ...c }) => c),
    budget,
  ).map((p) => {
    const own = whole.get(p.chunkId);
    return own ? { ...p, citedContent: own } : p;
  });
}

/**
 * Hands the second stage the vectors ingestion stored for texts it would otherwise encode: a short
 * chunk's own vector (its text is the chunk's), and a long chunk's windows of two sentences (record
 * 0090: the same texts as its pairs 1–2, 3–4, …). On a library's first questions in a process these
 * were most of the second stage's time (the local encoder takes 20–30 ms a text). One statement,
 * only for candidates with a text not known yet; without vector columns, nothing.
 */
async function rememberStoredVectors(
  db: Kysely<Database>,
  embedder: Embedder,
  candidates: RetrievedChunk[],
): Promise<void> {
  const short = new Map<string, string>();
  const long = new Map<string, string[]>();
  for (const c of candidates) {
    if (c.content.length <= FOCUS_CHARS) {
      const text = shortFocusText(c.content);
      if (unknownTexts(embedder, [text]).length > 0) short.set(c.chunkId, text);
    } else {
      const windows = windowTextsOf(c.content);
      if (unknownTexts(embedder, windows).length > 0) long.set(c.chunkId, windows);
    }
  }
  if ((short.size === 0 && long.size === 0) || !(await hasVectorColumn(db))) return;
  const made = madeBy(embedder.model);
  try {
    const r = await sql<{ id: string; ordinal: number | null; v: string }>`
      select c.id::text as id, null::int as ordinal, c.embedding::text as v
      from chunks c join knowledge_items k on k.id = c.knowledge_item_id
      where c.id = any(${[...short.keys()]}::bigint[]) and c.embedding is not null ${made}
      union all
      select w.chunk_id::text as id, w.ordinal, w.embedding::text as v
      from chunk_windows w join chunks c on c.id = w.chunk_id
        join knowledge_items k on k.id = c.knowledge_item_id
      where w.chunk_id = any(${[...long.keys()]}::bigint[]) and w.embedding is not null ${made}`.execute(db);
    const entries: [string, number[]][] = [];
    for (const row of r.rows) {
      const text = row.ordinal === null ? short.get(row.id) : long.get(row.id)?.[row.ordinal];
      if (text !== undefined) entries.push([text, JSON.parse(row.v) as number[]]);
    }
    rememberVectors(embedder, entries);
  } catch {
    // Not read (a table without its vectors): the second stage encodes them, as before.
  }
}

/**
 * Whether two chunks come from one source: one item and, for a crawled site or a sitemap (one item,
 * many pages), one page; the last chunk of one page and the first of the next are never joined.
 */
const sameSource = (a: RetrievedChunk, b: RetrievedChunk) =>
  a.knowledgeItemId === b.knowledgeItemId && pageOf(a) === pageOf(b);
const pageOf = (c: RetrievedChunk) => (typeof c.metadata?.url === 'string' ? c.metadata.url : '');

/** Fills a character budget with ranked chunks, joining neighbours of one source (see retrievePassages). */
export function packPassages(ranked: RetrievedChunk[], budgetChars: number): Passage[] {
  type Group = { rank: number; chunks: { chunk: RetrievedChunk; ordinal: number }[] };
  const groups: Group[] = [];
  const joined = (g: Group) =>
    g.chunks
      .slice()
      .sort((a, b) => a.ordinal - b.ordinal)
      .reduce(
        (text, { chunk }) => (text ? joinOverlapping(text, chunk.content.trim()) : chunk.content.trim()),
        '',
      );
  let used = 0;
  for (const [rank, chunk] of ranked.entries()) {
    const ordinal = Number(chunk.ordinal ?? Number.NaN);
    const neighbour = Number.isFinite(ordinal)
      ? groups.find(
          (g) =>
            sameSource(g.chunks[0]!.chunk, chunk) &&
            g.chunks.some((c) => Math.abs(c.ordinal - ordinal) === 1),
        )
      : undefined;
    if (neighbour) {
      const before = joined(neighbour).length;
      neighbour.chunks.push({ chunk, ordinal });
      const after = joined(neighbour).length;
      if (used + after - before > budgetChars) {
        neighbour.chunks.pop();
        continue;
      }
      used += after - before;
      // Two groups this chunk bridges become one.
      const other = groups.find(
        (g) =>
          g !== neighbour &&
          sameSource(g.chunks[0]!.chunk, chunk) &&
          g.chunks.some((c) => Math.abs(c.ordinal - ordinal) === 1),
      );
      if (other) {
        const separate = joined(neighbour).length + joined(other).length;
        neighbour.chunks.push(...other.chunks);
        neighbour.rank = Math.min(neighbour.rank, other.rank);
        groups.splice(groups.indexOf(other), 1);
        used += joined(neighbour).length - separate;
      }
      continue;
    }
    const length = chunk.content.trim().length;
    if (used + length > budgetChars) continue;
    used += length;
    groups.push({ rank, chunks: [{ chunk, ordinal: Number.isFinite(ordinal) ? ordinal : -1e9 - rank }] });
  }
  return groups
    .sort((a, b) => a.rank - b.rank)
    .map((g) => {
      const best = g.chunks.reduce((a, b) => (b.chunk.score > a.chunk.score ? b : a)).chunk;
      const inOrder = g.chunks.slice().sort((a, b) => a.ordinal - b.ordinal);
      const content = joined(g);
      return {
        ...best,
        content,
        ...(content !== best.content.trim() ? { citedContent: best.content } : {}),
        chunkIds: inOrder.map((c) => c.chunk.chunkId),
      };
    });
}

/** Two consecutive chunks as one text: the end of the first that the second repeats is said once. */
function joinOverlapping(first: string, second: string): string {
  const max = Math.min(first.length, second.length, 400);
  for (let n = max; n >= 20; n--) {
    if (first.endsWith(second.slice(0, n))) return first + second.slice(n);
  }
  return `${first}\n${second}`;
}

/** A ranked chunk: where it stands, and its score on one list. */
interface Row {
  chunkId: string;
  knowledgeItemId: string;
  /** Where the chunk stands in its source (0 first). */
  ordinal: number;
  score: number;
  /** The summed weight of the question's words the chunk holds (the full-text coverage). */
  covered: number;
}

/** What a chosen chunk is read whole for: its text, metadata and what a source line needs. */
interface Whole {
  chunkId: string;
  content: string;
  metadata: Record<string, unknown>;
  title: string | null;
  url: string | null;
  youtube_url: string | null;
  file_name: string | null;
}

/** The title a chunk's own page (or video) carries in its metadata, when it has one. */
const ownTitle = (metadata: Record<string, unknown> | null | undefined): string | undefined => {
  const title = metadata?.title;
  return typeof title === 'string' && title.trim() ? title.trim() : undefined;
};

const toChunk = (r: Row, w: Whole, score: number): RetrievedChunk => ({
  chunkId: r.chunkId,
  knowledgeItemId: r.knowledgeItemId,
  content: w.content,
  // A page of a crawled site (or a sitemap) is cited by its own title, not the item's "Site (4 pages)".
  title: ownTitle(w.metadata) ?? w.title ?? w.file_name ?? w.url ?? w.youtube_url ?? 'Unknown Source',
  source:
    (typeof w.metadata?.timestampUrl === 'string' ? w.metadata.timestampUrl : null) ??
    (typeof w.metadata?.url === 'string' ? w.metadata.url : null) ??
    w.url ??
    w.youtube_url ??
    w.file_name ??
    '',
  metadata: w.metadata,
  ordinal: Number(r.ordinal),
  score,
});

/**
 * The condition that chunk `c` belongs to a ready item (only their chunks answer), as "not one of
 * the chatbot's unready items": those are almost always none, found through their partial index
 * (knowledge_items_unready_idx) once per statement, where a join with the ready items would read
 * the chatbot's whole library for every search.
 */
const ofReadyItem = (chatbotId: string, c: string) =>
  sql`${sql.ref(`${c}.knowledge_item_id`)} <> all(array(select id from knowledge_items
    where chatbot_id = ${chatbotId} and status not in ('completed', 'active')))`;

/** A question's full-text terms: what its lists match and how a row's coverage is weighed. */
interface TextTerms {
  /** Every word of the question (when it has more than one, and it is not the `some` query). */
  every: string[] | null;
  /** Its telling words (tellingLexemes); null: the question has no words to search by. */
  some: { lexemes: string[]; operator: '&' | '|' } | null;
  /** Each word's weight in a row's coverage: its rarity (words no chunk holds are left out). */
  weights: Map<string, number>;
}

/** The question's words, the telling ones among them and their weights (no words: `some` null). */
async function textTerms(db: Kysely<Database>, chatbotId: string, question: string): Promise<TextTerms> {
  const own = await questionLexemes(db, question);
  if (own.length === 0) return { every: null, some: null, weights: new Map() };
  const [telling, rarity] = await Promise.all([
    tellingLexemes(db, chatbotId, own),
    lexemeRarity(db, chatbotId, own),
  ]);
  const weights = new Map<string, number>();
  for (const l of own) if (rarity(l) > 0) weights.set(l, rarity(l));
  // When the telling words are every word together, the two lists are one query: asked once.
  const words = new Set(own);
  const same =
    telling.operator === '&' &&
    telling.lexemes.length === words.size &&
    telling.lexemes.every((l) => words.has(l));
  return { every: words.size > 1 && !same ? own : null, some: telling, weights };
}

interface RankedLists {
  /** Passages holding every word of the question, best full-text rank first. */
  every: Row[];
  /** Passages holding its telling words, best full-text rank first. */
  some: Row[];
  /** The nearest passages by meaning, most similar first. */
  vector: Row[];
  /** The passages whose windows are nearest by meaning, by their best window, most similar first. */
  windows: Row[];
}

/**
 * A question's lists in one statement, at most `limit` chunks each: passages holding every word of
 * the question (`every`) and its telling words (`some`), each ranking at most RANKED_CHUNKS_CAP
 * matches (`ts_rank`, then id), and the nearest passages by meaning through the HNSW index
 * (`nearestChunkIds`). The lists are ranked on the chunks' ids, full-text column and vectors alone,
 * and come back as ids, scores and each chunk's coverage of the question's words (summed by their
 * weights in the database); only the chunks the fused ranking keeps are read whole (`readWhole`).
 */
async function rankedLists(
  db: Kysely<Database>,
  input: {
    chatbotId: string;
    terms: TextTerms | null;
    vector: { query: number[]; embedderId: string; efSearch: number } | null;
    /** Also the window list (record 0090), with the vector. */
    windows?: boolean;
    limit: number;
    exact: boolean;
  },
): Promise<RankedLists> {
  const { chatbotId, terms, vector, limit } = input;
  const ctes: RawBuilder<unknown>[] = [];
  const lists: RawBuilder<unknown>[] = [];
  const fullTextList = (list: 0 | 1, lexemes: string[], operator: '&' | '|') => {
    const [q, pool] = [sql.raw(`q${list}`), sql.raw(`pool${list}`)];
    ctes.push(sql`${q} as materialized (select ${tsquery(lexemes, operator)} as q),
      ${pool} as (
        select c.id, c.tsv, c.knowledge_item_id from chunks c, ${q}
        where c.chatbot_id = ${chatbotId} and c.tsv @@ ${q}.q limit ${RANKED_CHUNKS_CAP})`);
    // ts_rank, not ts_rank_cd: the rank only picks which matches enter the list (the fusion scores
    // a row by its coverage), and cover density costs twice as much per row (record 0065).
    lists.push(sql`(select ${sql.lit(list)} as list, p.id, ts_rank(p.tsv, ${q}.q)::float8 as score
        from ${pool} p, ${q}
        where ${ofReadyItem(chatbotId, 'p')}
        order by score desc, p.id limit ${limit})`);
  };
  if (terms?.every) fullTextList(0, terms.every, '&');
  if (terms?.some) fullTextList(1, terms.some.lexemes, terms.some.operator);
  if (vector) {
    const settings = input.exact ? {} : { efSearch: vector.efSearch };
    lists.push(sql`(${nearestChunkIds(chatbotId, vector.query, limit, vector.embedderId, settings)})`);
    if (input.windows) {
      const rows = limit * WINDOW_ROWS_PER_CHUNK;
      const windowSettings = input.exact ? {} : { efSearch: Math.max(vector.efSearch, rows + 32) };
      lists.push(
        sql`(${nearestWindowChunkIds(chatbotId, vector.query, limit, rows, vector.embedderId, windowSettings)})`,
      );
    }
  }
  const found: RankedLists = { every: [], some: [], vector: [], windows: [] };
  if (lists.length === 0) return found;
  // A chunk's coverage: the weights of the question's words it holds, each word a one-lexeme query
  // (a binary search in the chunk's tsvector), for the chunks on a full-text list only.
  const words = [...(terms?.weights ?? [])];
  if (words.length > 0) {
    ctes.push(sql`words as materialized (
      select to_tsquery('simple', quote_literal(w.l)) as q, w.weight
      from unnest(${words.map(([l]) => l)}::text[], ${words.map(([, w]) => w)}::float8[]) as w(l, weight))`);
  }
  const covered =
    words.length > 0
      ? sql`case when r.lists && array[0, 1] then
          (select coalesce(sum(words.weight), 0)::float8 from words where chunks.tsv @@ words.q) else 0 end`
      : sql`0::float8`;
  const statement = sql<Omit<Row, 'score'> & { lists: number[]; scores: number[] }>`
    with ${sql.join([
      ...ctes,
      sql`hits as (${sql.join(lists, sql` union all `)})`,
      sql`ranked as (select id, array_agg(list) as lists, array_agg(score) as scores from hits group by id)`,
    ])}
    select r.lists, r.scores, chunks.id as "chunkId", chunks.knowledge_item_id as "knowledgeItemId",
      chunks.ordinal, ${covered} as covered
    from ranked r
    join chunks on chunks.id = r.id`;
  // Exact search (the bench's reference): the same statement with index scans turned off.
  const rows = input.exact
    ? await db.transaction().execute(async (trx) => {
        await sql`select set_config('enable_indexscan', 'off', true)`.execute(trx);
        return (await statement.execute(trx)).rows;
      })
    : (await statement.execute(db)).rows;
  for (const { lists: on, scores, ...chunk } of rows) {
    for (const [i, list] of on.entries()) {
      const row: Row = {
        chunkId: String(chunk.chunkId),
        knowledgeItemId: chunk.knowledgeItemId,
        ordinal: Number(chunk.ordinal),
        score: Number(scores[i]),
        covered: Number(chunk.covered),
      };
      (list === 0 ? found.every : list === 1 ? found.some : list === 2 ? found.vector : found.windows).push(
        row,
      );
    }
  }
  // Best first, then by id (relaxed_order may hand the vector list back slightly out of order).
  const order = (a: Row, b: Row) => b.score - a.score || Number(a.chunkId) - Number(b.chunkId);
  return {
    every: found.every.sort(order),
    some: found.some.sort(order),
    vector: found.vector.sort(order),
    windows: found.windows.sort(order),
  };
}

interface TextList {
  rows: Row[];
  /** A row's IDF-weighted share of the question's words (0…1). */
  coverage: (row: Row) => number;
}

/**
 * The full-text list: passages with every word of the question first, then those with its telling
 * words (a look-alike that repeats the question's words must not crowd out the passage that answers
 * it in other words), each scored by its coverage of the question's words.
 */
function textList(lists: RankedLists, terms: TextTerms, limit: number): TextList {
  const seen = new Set(lists.every.map((r) => r.chunkId));
  const rows = [...lists.every, ...lists.some.filter((r) => !seen.has(r.chunkId))].slice(0, limit);
  const total = [...terms.weights.values()].reduce((a, b) => a + b, 0) || 1;
  return { rows, coverage: (row) => row.covered / total };
}

/**
 * How telling each word is among a chatbot's chunks: ln(1 + N / df), N its chunks and df those
 * holding the word. Counted exactly in a small library; in a large one read from PostgreSQL's
 * statistics (a word not among the most common is taken as rare).
 */
async function lexemeRarity(
  db: Kysely<Database>,
  chatbotId: string,
  lexemes: string[],
): Promise<(lexeme: string) => number> {
  const size = Math.max(1, await chatbotChunks(db, chatbotId));
  const df = new Map<string, number>();
  if (size <= COMMON_LEXEME_CHUNKS) {
    const r = await sql<{ l: string; n: number }>`
      select l, (select count(*)::int from chunks c
                 where c.chatbot_id = ${chatbotId} and c.tsv @@ to_tsquery('simple', quote_literal(l))) as n
      from unnest(${lexemes}::text[]) as l`.execute(db);
    for (const row of r.rows) df.set(row.l, Number(row.n));
  } else {
    const shares = await commonLexemes(db);
    for (const l of lexemes) df.set(l, Math.max(1, (shares.get(l) ?? 0) * size));
  }
  return (l) => {
    const n = df.get(l) ?? 1;
    return n <= 0 ? 0 : Math.log(1 + size / n);
  };
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
 * The HNSW index (packages/core/src/vector-index.ts) walked further when the chatbot and status
 * filters drop its nearest rows (iterative scan), instead of answering with fewer than asked for:
 * settings read in the statement's one-row CTE.
 */
const hnswSettings = (efSearch: number | undefined) =>
  efSearch
    ? sql`, set_config('hnsw.iterative_scan', 'relaxed_order', true),
        set_config('hnsw.ef_search', ${String(efSearch)}, true)`
    : sql``;

/** Only vectors this embedder made; items stored before their embedder was recorded count as its. */
const madeBy = (embedderId: string | undefined) =>
  embedderId
    ? sql`and (k.content_hash is null or k.content_hash like ${`%:${embedderId.replace(/[\\%_]/g, (c) => `\\${c}`)}`})`
    : sql``;

/**
 * The vector list of `rankedLists`: a chatbot's ready chunks nearest to a vector (cosine), as
 * `(list 2, id, score)`, through the HNSW index of the vector's size: the cast and the size
 * condition are the index's own expression and predicate.
 *
 * With `efSearch`, the statement sets its own HNSW search settings (transaction-local, so for this
 * statement only when it runs alone): the query vector is a one-row CTE that sets them as it is read,
 * and the index scan reads it before it starts walking the graph. One round trip instead of a
 * transaction of four (begin, settings, query, commit).
 */
export function nearestChunkIds(
  chatbotId: string,
  query: number[],
  limit: number,
  /** Only vectors this embedder made (an item's content hash ends with it); any when omitted. */
  embedderId?: string,
  options: { efSearch?: number } = {},
) {
  const dimensions = query.length;
  const embedding = sql`c.${typedEmbedding(dimensions)}`;
  const settings = hnswSettings(options.efSearch);
  const made = madeBy(embedderId);
  // The vector is read once (parsing 384 numbers costs more than the rest of the statement's
  // set-up), in a one-row CTE that the ordering and the score read as a constant.
  const target = sql`(select v from target)`;
  return sql`with target as materialized (
      select ${vectorLiteral(query)}::vector(${sql.lit(dimensions)}) as v${settings})
    select 2 as list, c.id, (1 - (${embedding} <=> ${target}))::float8 as score
    from chunks c join knowledge_items k on k.id = c.knowledge_item_id
    where c.chatbot_id = ${chatbotId} and c.embedding is not null
      and vector_dims(c.embedding) = ${sql.lit(dimensions)}
      and k.status in ('completed', 'active') ${made}
    order by ${embedding} <=> ${target}, c.id
    limit ${limit}`;
}

/**
 * The window list of `rankedLists` (record 0090): the `rows` windows of a chatbot's ready chunks
 * nearest to a vector (through the windows' HNSW index of its size, as `nearestChunkIds`), as
 * `(list 3, chunk id, best window's similarity)`, at most `limit` chunks. A window is scoped by its
 * own chatbot column and its chunk's item, like the chunks' list.
 */
export function nearestWindowChunkIds(
  chatbotId: string,
  query: number[],
  limit: number,
  rows: number,
  embedderId?: string,
  options: { efSearch?: number } = {},
) {
  const dimensions = query.length;
  const embedding = sql`w.${typedEmbedding(dimensions)}`;
  const settings = hnswSettings(options.efSearch);
  const made = madeBy(embedderId);
  const target = sql`(select v from wtarget)`;
  return sql`with wtarget as materialized (
      select ${vectorLiteral(query)}::vector(${sql.lit(dimensions)}) as v${settings}),
    near as (
      select w.chunk_id, (1 - (${embedding} <=> ${target}))::float8 as score
      from chunk_windows w
      join chunks c on c.id = w.chunk_id
      join knowledge_items k on k.id = c.knowledge_item_id
      where w.chatbot_id = ${chatbotId} and c.chatbot_id = ${chatbotId} and w.embedding is not null
        and vector_dims(w.embedding) = ${sql.lit(dimensions)}
        and k.status in ('completed', 'active') ${made}
      order by ${embedding} <=> ${target}, w.id
      limit ${rows})
    select 3 as list, chunk_id as id, max(score) as score
    from near group by chunk_id
    order by score desc, chunk_id
    limit ${limit}`;
}

/** The question's vector; null when vectors are unavailable or embedding fails. */
async function questionVector(
  db: Kysely<Database>,
  embedder: Embedder | null,
  question: string,
): Promise<number[] | null> {
  if (!embedder || !(await hasVectorColumn(db))) return null;
  try {
    const vector = await embedder.embedQuery(question);
    return vector.length > 0 ? vector : null;
  } catch {
    return null;
  }
}
