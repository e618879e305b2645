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

/**
 * How similar each sentence is to the question by meaning (cosines of a sentence encoder), or null
 * when no encoder is at hand (then the embedded answerer goes by the question's words alone).
 */
export type SentenceSimilarity = (question: string, sentences: string[]) => Promise<(number | null)[] | null>;

/**
 * A sentence answers by meaning when its similarity to the question (the local encoder's cosine) is
 * at least this; measured on the coffee set's tuning half and unrelated questions (record 0080), and
 * raised from 0.5 when the guitar set's "What is the best way to get a red wine stain out of a
 * carpet?" reached 0.506 with a sentence on keeping a guitar in its case (record 0088): no right
 * sentence of the three sets was quoted with a cosine between 0.5 and 0.52.
 */
export const RELEVANT_SIMILARITY = 0.52;
/** Weight of word coverage (0…1) beside the similarity: the second signal, breaking near-ties. */
const COVERAGE_WEIGHT = 0.15;
/**
 * Relevant by words alone (half the question's words) also needs this much similarity by meaning:
 * "Which programming language should I learn first?" covers half of "Squats with a barbell should be
 * learned with a coach first." (cosine 0.2); the right sentences found by words are above 0.35.
 */
const WORDS_MIN_SIMILARITY = 0.3;
/** "you" is the object, not the subject, after these words ("tell you", "for you"): then "me". */
const OBJECT_BEFORE =
  /^(to|for|with|at|from|about|of|by|on|than|like|tell|give|ask|help|show|let|make|get|see|hear|thank|call|send|pay|teach|meet|join|follow|need|want|love|trust|bother)$/i;

/**
 * The question as the creator would have written its answer (issue 37): the fan's "you" and "your"
 * become "I" and "my", since the creator's material says what they do in the first person ("How
 * often do you water your monstera?" against "I water my monstera once a week."). The local encoder
 * compares the forms as well as the meaning: the swapped question is nearer the sentence that
 * answers it, and no nearer an unrelated one (docs/knowledge.md, "The question in the creator's
 * voice"). Only the second person is changed; the fan's own "I" and "my" stay as they are.
 */
export function inCreatorsVoice(question: string): string {
  const keepCase = (from: string, to: string) =>
    from[0] === from[0]!.toUpperCase() && to !== 'I' ? to[0]!.toUpperCase() + to.slice(1) : to;
  return question
    .replace(/\b(are|were)\s+you\b/gi, (m, verb: string) =>
      keepCase(m, `${verb.toLowerCase() === 'are' ? 'am' : 'was'} I`),
    )
    .replace(/\byou\s+(are|were)\b/gi, (m, verb: string) =>
      keepCase(m, `I ${verb.toLowerCase() === 'are' ? 'am' : 'was'}`),
    )
    .replace(
      /\byou(['’])(re|ve|ll|d)\b/gi,
      (_m, q: string, rest: string) => `I${q}${rest.toLowerCase() === 're' ? 'm' : rest.toLowerCase()}`,
    )
    .replace(/\byourselves\b|\byourself\b/gi, (m) => keepCase(m, 'myself'))
    .replace(/\byours\b/gi, (m) => keepCase(m, 'mine'))
    .replace(/\byour\b/gi, (m) => keepCase(m, 'my'))
    .replace(/\byou\b/gi, (_m, at: number, whole: string) => {
      // The word before, read from a bounded slice (no backtracking over a long question).
      const before = /([\p{L}']+)\s+$/u.exec(whole.slice(Math.max(0, at - 16), at))?.[1];
      return before && OBJECT_BEFORE.test(before) ? 'me' : 'I';
    });
}

/** Sentences weighed by meaning: those of the best passages, in their order, up to this many. */
const MAX_SENTENCES = 64;

/**
 * The embedded answerer by meaning (issue 37): the sentence of the creator's material most similar
 * to the question by the local encoder (word coverage as a second signal), quoted with the next one
 * when it carries on, or, when no sentence is similar enough (nor covers half the question's words,
 * the rule of `offlineAnswer`), the plain fallback that hands over.
 * Without an encoder (or when it fails), `offlineAnswer` by the question's words.
 */
export async function offlineAnswerByMeaning(
  creatorName: string,
  question: string,
  knowledge: KnowledgeExcerpt[],
  similarity: SentenceSimilarity | null,
  voice: AnswerVoice = 'assistant',
): Promise<QuotedAnswer> {
  const byWords = () => offlineAnswer(creatorName, question, knowledge, voice);
  if (!similarity || knowledge.length === 0) return byWords();
  const asked = contentWords(question);
  for (const name of contentWords(creatorName)) asked.delete(name);
  const all: { passage: number; sentence: number; sentences: { text: string; line: number }[] }[] = [];
  const perPassage = knowledge.map((k) => paragraphSentences(k.content));
  for (const [passage, sentences] of perPassage.entries()) {
    for (const sentence of sentences.keys()) {
      if (all.length < MAX_SENTENCES) all.push({ passage, sentence, sentences });
    }
  }
  let sims: (number | null)[] | null;
  try {
    sims = await similarity(
      inCreatorsVoice(question),
      all.map((a) => a.sentences[a.sentence]!.text),
    );
  } catch {
    sims = null;
  }
  if (!sims) return byWords();
  let best: { score: number; at: number } | undefined;
  for (const [at, a] of all.entries()) {
    const sim = sims[at] ?? 0;
    const covered = coverage(asked, a.sentences[a.sentence]!.text);
    // Relevant by meaning, or by the question's words as before (never fewer answers than those).
    if (sim < RELEVANT_SIMILARITY && (covered < RELEVANT_COVERAGE || sim < WORDS_MIN_SIMILARITY)) continue;
    const score = sim + COVERAGE_WEIGHT * covered;
    // Ties go to the better-ranked passage (earlier), then the earlier sentence.
    if (!best || score > best.score) best = { score, at };
  }
  if (!best) return { text: offlineFallbackText(creatorName), from: null };
  const { passage, sentence, sentences } = all[best.at]!;
  const first = sentences[sentence]!;
  let quote = first.text;
  const next = sentences[sentence + 1];
  const nextAt = all.findIndex((a) => a.passage === passage && a.sentence === sentence + 1);
  const nextSim = nextAt >= 0 ? (sims[nextAt] ?? 0) : 0;
  // A second sentence when it carries on the answer: the same paragraph, near the question in
  // meaning too, and room for it.
  if (
    next &&
    next.line === first.line &&
    nextSim >= RELEVANT_SIMILARITY &&
    quote.length + next.text.length + 1 <= QUOTE_MAX_CHARS
  ) {
    quote = `${quote} ${next.text}`;
  }
  if (voice === 'creator') return { text: excerpt(quote, QUOTE_MAX_CHARS), from: passage };
  return { text: `“${excerpt(quote, QUOTE_MAX_CHARS)}”`, from: passage };
}
