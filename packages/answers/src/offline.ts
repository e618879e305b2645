import { contentWords } from '@fanpilot/core';
import type { AnswerVoice, KnowledgeExcerpt } from './prompt.ts';

// The embedded answerer (no model key configured; docs/decisions/0035-an-honest-embedded-answerer-and-hand-overs-that-wait.md):
// the one or two sentences of the creator's material that answer the question best, quoted as
// such, or, when nothing of it is relevant, a plain "not in the material" that hands the question
// over to the creator. Never a fixed preamble, never the nearest text whatever it says.

const EXCERPT_MAX_CHARS = 700;
/** A quote never runs longer than this (two sentences at most). */
const QUOTE_MAX_CHARS = 450;

/** A quote of at most `max` characters, cut at a sentence (or word) boundary. */
export function excerpt(text: string, max = EXCERPT_MAX_CHARS): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const head = clean.slice(0, max);
  const sentence = Math.max(head.lastIndexOf('. '), head.lastIndexOf('! '), head.lastIndexOf('? '));
  if (sentence > max / 2) return head.slice(0, sentence + 1);
  const space = head.lastIndexOf(' ');
  return `${head.slice(0, space > max / 2 ? space : max)}…`;
}

/** The reply when nothing of the creator's is relevant: said plainly, and handed over to them. */
export const offlineFallbackText = (creatorName: string) =>
  `I couldn't find this in ${creatorName}'s material, so I've passed your question on to ${creatorName}, who will answer you personally.`;

/** The sentences of a passage (lines and sentence ends), trimmed, without empty ones. */
export function sentencesOf(text: string): string[] {
  return paragraphSentences(text).map((s) => s.text);
}

/** The sentences of a passage with the line (paragraph) each is on. */
function paragraphSentences(text: string): { text: string; line: number }[] {
  return text.split(/\n+/).flatMap((line, n) =>
    line
      .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“'(])/u)
      .map((s) => ({ text: s.replace(/\s+/g, ' ').trim(), line: n }))
      .filter((s) => s.text.length > 0),
  );
}

export interface QuotedAnswer {
  text: string;
  /** The index (in `knowledge`) of the passage quoted; null when nothing was relevant. */
  from: number | null;
}

/**
 * How much of the question a sentence covers: the share of the question's content words (not the
 * creator's name, not greetings or stop words) it contains. Relevant when it covers at least half
 * of them, and at least one.
 */
export function coverage(questionWords: Set<string>, sentence: string): number {
  if (questionWords.size === 0) return 0;
  const words = contentWords(sentence);
  let shared = 0;
  for (const w of questionWords) if (words.has(w)) shared++;
  return shared / questionWords.size;
}

/** A sentence is relevant when it covers at least this share of the question's content words. */
export const RELEVANT_COVERAGE = 0.5;

/**
 * The answer given when no model key is configured for the chatbot's provider: the most relevant
 * sentence (and the next one of the same passage, when it is relevant too) quoted from the
 * creator's material (the caller cites the passage `from`); or, when no sentence covers the question,
 * a plain fallback that says so and hands over. In the creator's voice (a draft of their reply) the
 * sentences come as they are, with no quotation marks.
 */
export function offlineAnswer(
  creatorName: string,
  question: string,
  knowledge: KnowledgeExcerpt[],
  voice: AnswerVoice = 'assistant',
): QuotedAnswer {
  const asked = contentWords(question);
  for (const name of contentWords(creatorName)) asked.delete(name);
  let best:
    | { score: number; passage: number; sentence: number; sentences: { text: string; line: number }[] }
    | undefined;
  knowledge.forEach((k, passage) => {
    const sentences = paragraphSentences(k.content);
    sentences.forEach((s, sentence) => {
      const score = coverage(asked, s.text);
      // Ties go to the better-ranked passage (earlier), then the earlier sentence.
      if (score >= RELEVANT_COVERAGE && (!best || score > best.score)) {
        best = { score, passage, sentence, sentences };
      }
    });
  });
  if (!best) return { text: offlineFallbackText(creatorName), from: null };
  const { sentences, sentence, passage } = best;
  const first = sentences[sentence]!;
  let quote = first.text;
  const next = sentences[sentence + 1];
  // A second sentence when it carries on the answer: the same paragraph, a word of the question,
  // and room for it.
  if (
    next &&
    next.line === first.line &&
    coverage(asked, next.text) > 0 &&
    quote.length + next.text.length + 1 <= QUOTE_MAX_CHARS
  ) {
    quote = `${quote} ${next.text}`;
  }
  // A draft of the creator's own reply (docs/decisions/0075) is their sentences as they wrote them:
  // a message they would send, not a quotation of themselves.
  if (voice === 'creator') return { text: excerpt(quote, QUOTE_MAX_CHARS), from: passage };
  // Attributed by the answer's citation of passage `from` (its title and address, shown once), not
  // by a second copy of the title in the text (record 0073).
  return { text: `“${excerpt(quote, QUOTE_MAX_CHARS)}”`, from: passage };
}
