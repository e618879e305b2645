// An AI answer's citation markers ([1], [2]…: [n] cites its n-th source) as the apps show them:
// small links, never raw text (docs/decisions/0034-citations-follow-use.md).

const MARKER = /[ \t]?\[(\d{1,3})\]/g;

export type CitedSegment = { kind: 'text'; text: string } | { kind: 'cite'; n: number };

/** The text cut into plain runs and citation markers (n from 1). */
export function splitCitations(text: string): CitedSegment[] {
  const out: CitedSegment[] = [];
  let last = 0;
  for (const m of text.matchAll(MARKER)) {
    const at = m.index ?? 0;
    if (at > last) out.push({ kind: 'text', text: text.slice(last, at) });
    out.push({ kind: 'cite', n: Number(m[1]) });
    last = at + m[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

/** The text without its citation markers (a preview, a notification). */
export function withoutCitationMarkers(text: string): string {
  return text.replace(MARKER, '');
}
