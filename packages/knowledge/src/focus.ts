import { LRUCache } from 'lru-cache';
import type { Embedder } from './ingest/embeddings.ts';

/**
 * The second ranking stage of `retrievePassages` (issue 37, docs/decisions/0080): a chunk's vector
 * blurs the three or four subjects a 1,000-character chunk of a long page holds, so a paraphrased
 * question finds its sentence's chunk far down the list. The fused candidates are scored again by
 * their best sentence (the question's vector against each sentence's, the same embedder), and a long
 * chunk reaches the prompt as the few sentences around its best one, so more candidates fit the
 * knowledge budget. Sentence vectors are remembered (by embedder and text), so a library's
 * sentences are encoded once per process, not once per question.
 */

/** A chunk longer than this is split into sentences and focused on its best ones. */
export const FOCUS_CHARS = 400;
/**
 * The first candidates after the second stage reach the prompt whole, not focused (issue 37, record
 * 0088): on long pages the chunk the second stage ranks first often holds the answer in another
 * sentence than its most similar one, which a 400-character window around that sentence cuts off.
 * Three whole chunks take about 3,000 of the 8,000-character budget; the rest come focused (five
 * gained more on one set but left too little room on the repo's web pages, 38 → 37 of 40).
 */
export const FOCUS_WHOLE_FIRST = 3;
/**
 * The fused ranking's first candidate reaches the prompt whole too, wherever the second stage puts
 * it (issue 37, 29 November): the chunk's own vector, its windows and the question's words agreed on
 * it, and a focus on its most similar sentence can cut off the one that answers (coffee long pages:
 * "Why does the foamy layer on top of my shot disappear so fast?", first by the fused score, eighth
 * after the second stage and focused on another sentence). At most one more whole chunk of the budget.
 */
export const FOCUS_WHOLE_FUSED = 1;
/** New texts one question may encode (the rest of the candidates keep their fused order). */
export const FOCUS_MAX_NEW_TEXTS = 96;
/** Weight of the fused score (vector + full-text coverage, 0…1.5) beside the best sentence's cosine. */
const FUSED_WEIGHT = 0.1;
/**
 * A long chunk's score moves this share of the way from its best sentence's cosine towards its best
 * window of two neighbouring sentences', when the window is nearer the question (record 0088): an
 * answer can be spread over two sentences, or a sentence read better beside the one before it.
 */
const PAIR_WEIGHT = 0.5;
/** Sentence vectors remembered per process (about 2 KB each at 512 dimensions). */
const CACHE_ENTRIES = 20_000;

/** The sentences of a text (lines and sentence ends), trimmed, without empty ones. */
export function sentencesOfText(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“'(])/u))
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s.length > 0);
}

/**
 * Windows stored per long chunk at most (record 0090): a 1,000-character chunk has about four; a
 * chunk of many short lines (a transcript's, a table's) is not allowed to cost more than this.
 */
export const MAX_WINDOWS = 16;

/**
 * The windows of a chunk whose vectors are stored at ingestion (record 0090), so retrieval's first
 * stage finds a long chunk by its best window: its sentences two by two (first and second, third and
 * fourth, …; every neighbouring pair, as the second stage reads them, cost twice as much to encode for
 * the same figures), none for a chunk of at most FOCUS_CHARS (its own vector is as sharp), at most
 * MAX_WINDOWS.
 */
export function windowTextsOf(content: string): string[] {
  if (content.length <= FOCUS_CHARS) return [];
  const sentences = sentencesOfText(content);
  if (sentences.length < 2) return [];
  const windows: string[] = [];
  for (let k = 0; k + 1 < sentences.length && windows.length < MAX_WINDOWS; k += 2) {
    windows.push(`${sentences[k]} ${sentences[k + 1]}`);
  }
  return windows;
}

const caches = new Map<string, LRUCache<string, Float32Array>>();

function cacheOf(embedder: Pick<Embedder, 'model'>): LRUCache<string, Float32Array> {
  let cache = caches.get(embedder.model);
  if (!cache) {
    cache = new LRUCache({ max: CACHE_ENTRIES });
    caches.set(embedder.model, cache);
  }
  return cache;
}

/** The text the second stage encodes for a chunk of at most FOCUS_CHARS: its content on one line. */
export const shortFocusText = (content: string) => content.replace(/\s+/g, ' ').trim();

/** Which of `texts` the second stage has no vector of yet (by `embedder`). */
export function unknownTexts(embedder: Pick<Embedder, 'model'>, texts: string[]): string[] {
  const cache = cacheOf(embedder);
  return texts.filter((t) => !cache.has(t));
}

/**
 * Vectors made by `embedder` elsewhere (stored at ingestion: a short chunk's own, a long chunk's
 * windows), remembered as the second stage's own, so it does not encode those texts again.
 */
export function rememberVectors(embedder: Pick<Embedder, 'model'>, entries: [string, ArrayLike<number>][]) {
  const cache = cacheOf(embedder);
  for (const [text, vector] of entries) if (vector.length > 0) cache.set(text, Float32Array.from(vector));
}
/** Texts being encoded when idle, by embedder: asked for again meanwhile, they are not queued twice. */
const idleQueued = new Map<string, Set<string>>();
/**
 * Texts one embedder may have waiting to be encoded when idle: a question's leftovers beyond this
 * are left to the questions after it.
 */
export const IDLE_MAX_QUEUED = 2_000;

/**
 * The vectors of `texts` by `embedder`, from the cache where it has them; at most `maxNew` texts are
 * encoded (in one call), the others come back undefined. Failing embedders give undefined too.
 * Where the embedder can encode when idle (the local encoder), the texts past `maxNew` are encoded
 * then and remembered, so a library's sentences are known after its first questions, not after
 * dozens (a cold library's questions each paid `maxNew` encodings; docs/performance.md).
 */
export async function cachedVectors(
  embedder: Embedder,
  texts: string[],
  maxNew = Number.POSITIVE_INFINITY,
): Promise<(Float32Array | undefined)[]> {
  const cache = cacheOf(embedder);
  const unknown = [...new Set(texts.filter((t) => !cache.has(t)))];
  const missing = unknown.slice(0, Math.max(0, maxNew));
  if (unknown.length > missing.length && embedder.embedWhenIdle) {
    encodeWhenIdle(embedder, cache, unknown.slice(missing.length));
  }
  if (missing.length > 0) {
    try {
      const vectors = await embedder.embedDocuments(missing);
      for (const [i, v] of vectors.entries()) if (v?.length) cache.set(missing[i]!, Float32Array.from(v));
    } catch {
      // No vectors: the candidates keep their order.
    }
  }
  return texts.map((t) => cache.get(t));
}

/** Texts per call of `embedWhenIdle`: the cache is read again before each (a question may have encoded them). */
const IDLE_BATCH = 4;

/** Queues `texts` (not already queued) to be encoded when `embedder` is idle, then remembered. */
function encodeWhenIdle(embedder: Embedder, cache: LRUCache<string, Float32Array>, texts: string[]) {
  let queued = idleQueued.get(embedder.model);
  if (!queued) {
    queued = new Set();
    idleQueued.set(embedder.model, queued);
  }
  const waiting = queued;
  const fresh = texts.filter((t) => !waiting.has(t)).slice(0, Math.max(0, IDLE_MAX_QUEUED - waiting.size));
  if (fresh.length === 0) return;
  for (const t of fresh) waiting.add(t);
  void (async () => {
    for (let i = 0; i < fresh.length; i += IDLE_BATCH) {
      const batch = fresh.slice(i, i + IDLE_BATCH).filter((t) => !cache.has(t));
      if (batch.length === 0) continue;
      try {
        const vectors = await embedder.embedWhenIdle!(batch);
        for (const [k, v] of vectors.entries()) if (v?.length) cache.set(batch[k]!, Float32Array.from(v));
      } catch {
        // Not encoded: a later question asks for them again.
        break;
      }
    }
  })().finally(() => {
    for (const t of fresh) waiting.delete(t);
  });
}

export const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * (b[i] ?? 0);
  return s;
};

/** What the second stage needs of a candidate. */
export interface FocusCandidate {
  content: string;
  score: number;
}

/**
 * Candidates (best first by the fused ranking) ordered again by their best sentence's similarity to
 * the question plus FUSED_WEIGHT × their fused score; past the first `wholeFirst` (FOCUS_WHOLE_FIRST),
 * which keep their whole text, as do the fused ranking's first `wholeFused` (FOCUS_WHOLE_FUSED)
 * wherever they land, a long chunk's content becomes its best sentence with its neighbours
 * (up to FOCUS_CHARS), its whole text kept in `wholeContent`. A
 * candidate whose sentences were not encoded (past FOCUS_MAX_NEW_TEXTS) keeps its place after the
 * scored ones. Without a question vector, the candidates as they are.
 */
export async function focusCandidates<T extends FocusCandidate>(
  embedder: Embedder,
  question: string,
  candidates: T[],
  {
    wholeFirst = FOCUS_WHOLE_FIRST,
    wholeFused = FOCUS_WHOLE_FUSED,
  }: { wholeFirst?: number; wholeFused?: number } = {},
): Promise<(T & { wholeContent?: string })[]> {
  if (candidates.length === 0) return candidates;
  let q: number[];
  try {
    q = await embedder.embedQuery(question);
  } catch {
    return candidates;
  }
  if (!q.length) return candidates;
  const split = candidates.map((c) =>
    c.content.length > FOCUS_CHARS ? sentencesOfText(c.content) : [shortFocusText(c.content)],
  );
  // Two neighbouring sentences of a long chunk as one text (after every sentence, so that on a cold
  // cache the sentences are encoded first and a window without a vector is only left out).
  const pairs = candidates.map((c, i) =>
    c.content.length > FOCUS_CHARS ? split[i]!.slice(1).map((s, k) => `${split[i]![k]} ${s}`) : [],
  );
  const sentenceCount = split.reduce((n, s) => n + s.length, 0);
  const vectors = await cachedVectors(embedder, [...split.flat(), ...pairs.flat()], FOCUS_MAX_NEW_TEXTS);
  let pairAt = sentenceCount;
  let at = 0;
  const scored: { c: T; focused: string | null; score: number; rank: number }[] = [];
  const unscored: (T & { wholeContent?: string })[] = [];
  for (const [rank, c] of candidates.entries()) {
    const sentences = split[rank]!;
    const sims = sentences.map((_, i) => {
      const v = vectors[at + i];
      return v ? dot(v, q) : Number.NaN;
    });
    at += sentences.length;
    const windows = vectors.slice(pairAt, pairAt + pairs[rank]!.length);
    pairAt += pairs[rank]!.length;
    if (sims.some(Number.isNaN) || sims.length === 0) {
      unscored.push(c);
      continue;
    }
    const best = sims.indexOf(Math.max(...sims));
    let pairBest = Number.NEGATIVE_INFINITY;
    let pair = -1;
    for (const [k, v] of windows.entries()) {
      const sim = v ? dot(v, q) : Number.NEGATIVE_INFINITY;
      if (sim > pairBest) [pairBest, pair] = [sim, k];
    }
    // Focused on the best window of two sentences when it is nearer the question than the best one.
    const focused =
      c.content.length <= FOCUS_CHARS
        ? null
        : pairBest > sims[best]!
          ? around(sentences, pair, sims, pair + 1)
          : around(sentences, best, sims);
    // Halfway towards the best window of two sentences when that is nearer the question.
    const sentenceScore = sims[best]! + PAIR_WEIGHT * Math.max(0, pairBest - sims[best]!);
    scored.push({ c, focused, score: sentenceScore + FUSED_WEIGHT * c.score, rank });
  }
  scored.sort((a, b) => b.score - a.score || a.rank - b.rank);
  return [
    ...scored.map(({ c, focused, rank }, i) =>
      i >= wholeFirst && rank >= wholeFused && focused && focused !== c.content
        ? { ...c, content: focused, wholeContent: c.content }
        : c,
    ),
    ...unscored,
  ];
}

/**
 * The best sentence (or sentences `best`…`until`) with its neighbours, the more similar first, while
 * within FOCUS_CHARS.
 */
function around(sentences: string[], best: number, sims: number[], until = best): string {
  let from = best;
  let to = until;
  let length = sentences.slice(best, until + 1).join(' ').length;
  for (;;) {
    const before = from > 0 ? from - 1 : -1;
    const after = to < sentences.length - 1 ? to + 1 : -1;
    const next = before < 0 ? after : after < 0 ? before : sims[before]! >= sims[after]! ? before : after;
    if (next < 0 || length + 1 + sentences[next]!.length > FOCUS_CHARS) break;
    length += 1 + sentences[next]!.length;
    if (next < from) from = next;
    else to = next;
  }
  return sentences.slice(from, to + 1).join(' ');
}

/**
 * The cosines of sentences to a question by `embedder` (its vectors remembered as the second stage's
 * are), for the embedded answerer; a sentence past `maxNew` new encodings gets null.
 */
export function sentenceSimilarity(embedder: Embedder, maxNew = FOCUS_MAX_NEW_TEXTS) {
  return async (question: string, sentences: string[]): Promise<(number | null)[] | null> => {
    const q = await embedder.embedQuery(question);
    if (!q.length) return null;
    const vectors = await cachedVectors(embedder, sentences, maxNew);
    return vectors.map((v) => (v ? dot(v, q) : null));
  };
}
