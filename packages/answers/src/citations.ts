import type { StoredSource } from '@fanpilot/contracts';
import type { RetrievedChunk } from '@fanpilot/knowledge';

/** How many citations an answer carries at most (one per source). */
export const MAX_CITATIONS = 3;

/** Percent-encoding for a text directive: also '-', ',' and '&', which are its syntax. */
const fragmentPart = (text: string) =>
  encodeURIComponent(text).replace(/-/g, '%2D').replace(/,/g, '%2C').replace(/&/g, '%26');

/**
 * A text fragment (`#:~:text=`) that scrolls a browser to the passage: the first words of its first
 * line, as the page shows them. Browsers without text fragments just open the page.
 */
export function textFragment(passage: string, words = 8): string {
  const line = passage.split('\n').find((l) => l.trim()) ?? '';
  const start = line.trim().split(/\s+/).slice(0, words).join(' ');
  return start ? `#:~:text=${fragmentPart(start)}` : '';
}

const isWeb = (s: unknown): s is string => typeof s === 'string' && /^https?:\/\//i.test(s);

const wordsOf = (text: string) =>
  new Set((text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !STOP.has(w)));
const STOP = new Set([
  'the',
  'and',
  'for',
  'you',
  'your',
  'how',
  'what',
  'with',
  'that',
  'this',
  'are',
  'should',
]);

/**
 * The second of the caption in a video passage that shares most words with the question (the
 * passage's start when none does, or when the chunk has no caption offsets).
 */
export function momentFor(chunk: RetrievedChunk, question: string): number | undefined {
  const m = chunk.metadata ?? {};
  const start = typeof m.start === 'number' ? Math.max(0, Math.floor(m.start)) : undefined;
  const moments = Array.isArray(m.moments) ? (m.moments as unknown[]) : [];
  const valid = moments.filter(
    (x): x is [number, number] => Array.isArray(x) && typeof x[0] === 'number' && typeof x[1] === 'number',
  );
  const asked = wordsOf(question);
  if (valid.length === 0 || asked.size === 0) return start;
  let best = { score: 0, second: start };
  valid.forEach(([offset, second], i) => {
    const own = chunk.citedContent ?? chunk.content;
    const text = own.slice(offset, valid[i + 1]?.[0] ?? own.length);
    let score = 0;
    for (const w of wordsOf(text)) if (asked.has(w)) score++;
    if (score > best.score) best = { score, second };
  });
  return best.second;
}

const withSeconds = (url: string, seconds: number) => {
  const u = new URL(url);
  u.searchParams.set('t', `${seconds}s`);
  return u.href;
};

/**
 * One citation for a retrieved chunk: where a tap on it should land (for this question). A file's
 * citation carries no address: it keeps the item and the passage quoted, which the fan it was given
 * to reads in the app's viewer (the creator's file itself is never handed out by a citation).
 */
export function citationFor(chunk: RetrievedChunk, question = ''): StoredSource {
  const m = chunk.metadata ?? {};
  const base = { title: chunk.title, source: chunk.source };
  if (typeof m.timestampUrl === 'string' && isWeb(m.timestampUrl)) {
    const seconds = momentFor(chunk, question);
    return {
      ...base,
      kind: 'video',
      url: seconds !== undefined ? withSeconds(m.timestampUrl, seconds) : m.timestampUrl,
      ...(seconds !== undefined ? { seconds } : {}),
    };
  }
  // A passage joined from neighbouring chunks is cited by its best chunk: that page, those words.
  const own = chunk.citedContent ?? chunk.content;
  const quoted = { itemId: chunk.knowledgeItemId, passage: own };
  if (typeof m.page === 'number' && Number.isInteger(m.page) && m.page > 0) {
    return { ...base, kind: 'pdf', page: m.page, ...quoted };
  }
  const page = isWeb(m.url) ? m.url : isWeb(chunk.source) ? chunk.source : null;
  if (page) {
    const at = new URL(page);
    at.hash = '';
    return { ...base, kind: 'web', url: `${at.href}${textFragment(own)}` };
  }
  return { ...base, kind: 'file', ...quoted };
}

/**
 * Which source a chunk is cited as: its item, and for a crawled site or a sitemap (one item, many
 * pages) its page: two pages of one site are two sources, each with its own title and address.
 */
export function citedSourceKey(chunk: RetrievedChunk): string {
  const page = chunk.metadata?.url;
  return typeof page === 'string' && isWeb(page)
    ? `item:${chunk.knowledgeItemId}@${page}`
    : `item:${chunk.knowledgeItemId}`;
}

/** The answer's citations: one per source, best first, at most MAX_CITATIONS. */
export function citationsFor(chunks: RetrievedChunk[], question = '', max = MAX_CITATIONS): StoredSource[] {
  const seen = new Set<string>();
  const out: StoredSource[] = [];
  for (const chunk of chunks) {
    const key = citedSourceKey(chunk);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(citationFor(chunk, question));
    if (out.length >= max) break;
  }
  return out;
}
