/** A piece of announcement text: plain text, or a link a person may follow. */
export type TextSegment = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

// Candidates start with a scheme we allow; anything else (javascript:, data:, …) stays plain text.
const URL_CANDIDATE = /\bhttps?:\/\/[^\s<>"'`]+/gi;
// Punctuation that usually ends the sentence rather than the address.
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"]+$/;

/** The address if it is a well-formed http(s) URL, else null. */
export function safeHref(candidate: string): string | null {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!url.hostname) return null;
  return url.href;
}

/** Drops a closing bracket or punctuation that belongs to the sentence, keeping balanced "(…)" in the URL. */
function trimTrailing(candidate: string): string {
  let url = candidate;
  for (;;) {
    const match = TRAILING_PUNCTUATION.exec(url);
    if (!match) return url;
    const tail = match[0];
    // Keep a ")" that closes a "(" inside the URL, as in Wikipedia links.
    if (tail === ')' && (url.match(/\(/g)?.length ?? 0) >= (url.match(/\)/g)?.length ?? 0)) return url;
    url = url.slice(0, -1);
  }
}

/**
 * Splits text into plain parts and http(s) links. The caller renders the parts as React text and
 * <a> elements, never as HTML, so nothing in a message can inject markup or script.
 */
export function linkify(text: string): TextSegment[] {
  const segments: TextSegment[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_CANDIDATE)) {
    const start = match.index;
    const candidate = trimTrailing(match[0]);
    const href = safeHref(candidate);
    if (!href) continue;
    if (start > last) segments.push({ kind: 'text', text: text.slice(last, start) });
    segments.push({ kind: 'link', text: candidate, href });
    last = start + candidate.length;
  }
  if (last < text.length) segments.push({ kind: 'text', text: text.slice(last) });
  return segments;
}
