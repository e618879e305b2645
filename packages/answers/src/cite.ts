// Citations follow use (docs/decisions/0034-citations-follow-use.md): the model marks the numbered
// excerpts it used as [n]; the stored answer cites exactly those sources, numbered 1, 2, … in the
// order the text first cites them, and its markers are renumbered to match.

/** A citation marker: [2], or several numbers in one pair of brackets ([1, 3] or [1][3]). */
const MARKER = /([ \t]*)\[(\d{1,3}(?:\s*[,;]\s*\d{1,3})*)\]/g;

export interface CitedText {
  /** The text with its markers renumbered to the answer's sources ([1] is the first source). */
  text: string;
  /**
   * The answer's sources, as keys (of the excerpts' sources), in order: `text`'s [k] cites
   * `sources[k - 1]`.
   */
  sources: string[];
}

/**
 * Renumbers the excerpt markers of `text` to source markers. `sourceOf(n)` is the key of excerpt n's
 * source (1-based; undefined for a number that names no excerpt: the marker is dropped). Excerpts
 * of one source share its number; repeats within a marker are dropped.
 */
export function citeUsed(text: string, sourceOf: (n: number) => string | undefined): CitedText {
  const sources: string[] = [];
  const replaced = text.replace(MARKER, (_whole, lead: string, list: string) => {
    const numbers: number[] = [];
    for (const part of list.split(/[,;]/)) {
      const key = sourceOf(Number(part.trim()));
      if (key === undefined) continue;
      let k = sources.indexOf(key);
      if (k < 0) k = sources.push(key) - 1;
      if (!numbers.includes(k + 1)) numbers.push(k + 1);
    }
    // [1][3] in the text: the second marker's space was the first's.
    return numbers.length === 0 ? '' : `${lead}${numbers.map((k) => `[${k}]`).join('')}`;
  });
  return { text: tidy(replaced), sources };
}

/** The text without any citation markers (a draft, or an answer that cites nothing). */
export function withoutMarkers(text: string): string {
  return tidy(text.replace(MARKER, ''));
}

/** Whether the text carries a citation marker at all. */
export const hasMarkers = (text: string) => new RegExp(MARKER.source).test(text);

const tidy = (text: string) => text.replace(/[ \t]+\n/g, '\n').trim();
