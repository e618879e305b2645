export type TextSegment = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

// One linkify for both web apps: http(s) URLs and bare www. hosts (as https). Anything else (javascript:, data:, mailto:) stays plain text.
const URL_PATTERN = /\b(?:https?:\/\/|www\.)[^\s<>"'`]+/gi;
const TRAILING_PUNCTUATION = /[.,;:!?'"*_~]+$/;

/** Drops punctuation that ends a sentence rather than the URL, and a closing bracket with no opener. */
function trimUrl(candidate: string): string {
  let url = candidate.replace(TRAILING_PUNCTUATION, '');
  for (const [open, close] of [
    ['(', ')'],
    ['[', ']'],
    ['{', '}'],
  ] as const) {
    while (url.endsWith(close) && url.split(close).length > url.split(open).length) {
      url = url.slice(0, -1).replace(TRAILING_PUNCTUATION, '');
    }
  }
  return url;
}

/** The address a link may point at: only http and https, otherwise null. */
export function safeHref(raw: string): string | null {
  const withScheme = /^www\./i.test(raw) ? `https://${raw}` : raw;
  try {
    const url = new URL(withScheme);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (!url.hostname) return null;
    return url.href;
  } catch {
    return null;
  }
}

/**
 * Splits text into plain parts and links. The parts are rendered as React text and <a> elements, so
 * nothing in the text can become HTML.
 */
export function linkify(text: string): TextSegment[] {
  const segments: TextSegment[] = [];
  let last = 0;
  const push = (segment: TextSegment) => {
    const previous = segments[segments.length - 1];
    if (segment.kind === 'text' && previous?.kind === 'text') previous.text += segment.text;
    else if (segment.text) segments.push(segment);
  };
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index ?? 0;
    const url = trimUrl(match[0]);
    const href = safeHref(url);
    push({ kind: 'text', text: text.slice(last, start) });
    if (href) push({ kind: 'link', text: url, href });
    else push({ kind: 'text', text: url });
    last = start + url.length;
  }
  push({ kind: 'text', text: text.slice(last) });
  return segments;
}

/**
 * The attributes every outgoing link carries: a new tab that cannot reach back into the page, no
 * referrer, and no ranking passed on to what fans and creators post (`nofollow ugc`).
 */
export const EXTERNAL_LINK_PROPS = {
  target: '_blank',
  rel: 'noopener noreferrer nofollow ugc',
} as const;
