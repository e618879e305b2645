import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { contentText } from './prompt.ts';

/** A turn of the conversation before the question, oldest first. */
export interface EarlierTurn {
  from: string;
  text: string;
}

/** What retrieval searches for a question: the question itself, or one rewritten to stand alone, and context. */
export interface SearchQuery {
  question: string;
  /** The fan's recent turns, searched at half weight (only when no model rewrote the question). */
  context: string[];
  /** Whether a model rewrote the question. */
  rewritten: boolean;
}

/** The fan's turns before the question that count for a follow-up. */
export const FOLLOW_UP_FAN_TURNS = 3;
/** How long a rewrite may take before the question is searched with the fan's turns instead. */
export const REWRITE_TIMEOUT_MS = 8_000;
const TURN_MAX_CHARS = 600;

/**
 * Words that point back to what was said before, by language: pronouns and demonstratives, not
 * articles (Spanish "la" and French "le" start half of all questions; French "il" is Italian's "the"). A false match costs little (the
 * question is searched with the conversation too); a missed one loses the thread.
 */
const POINTING_BACK: Record<string, string[]> = {
  en: 'it its that this these those they them their one ones there he she him her same then'.split(' '),
  es: 'eso esto esa ese esos esas ello él ella ellos ellas allí ahí allá mismo misma mismos mismas'.split(
    ' ',
  ),
  fr: 'ça cela ceci celui celle ceux celles elle elles là même mêmes'.split(' '),
  de: 'das dies diese dieser dieses diesem diesen er ihn ihm dort dasselbe derselbe dieselbe davon dafür damit'.split(
    ' ',
  ),
  pt: 'isso isto esse essa esses essas ele ela eles elas lá mesmo mesma'.split(' '),
  it: 'questo questa questi queste quello quella quelli quelle esso essa lui lei loro lì là stesso stessa'.split(
    ' ',
  ),
};
/** How a question that goes on from the last one starts ("And the price?", "¿Y el precio?"). */
const GOING_ON = [
  'and',
  'also',
  'but',
  'what about',
  'how about',
  'y',
  'también',
  'pero',
  'et',
  'aussi',
  'mais',
  'und',
  'auch',
  'aber',
  'e',
  'mas',
  'anche',
  'ma',
];
const letters = (words: string[]) => words.map((w) => w.replace(/ /g, '\\s+')).join('|');
// Whole words only, accented letters included (JavaScript's \b knows only ASCII letters).
const POINTING_BACK_PATTERN = new RegExp(
  `(?<![\\p{L}\\p{N}])(${letters(Object.values(POINTING_BACK).flat())})(?![\\p{L}\\p{N}])`,
  'iu',
);
const GOING_ON_PATTERN = new RegExp(`^[¿¡"'“«(\\s]*(${letters(GOING_ON)})(?![\\p{L}\\p{N}\\-'’])`, 'iu');

/**
 * Whether a question leans on what came before: short, with a word that points back ("it", "that",
 * "they", "eso", "ça", …) or that goes on from it ("And the price?", "¿Y el precio?"). Only these are
 * rewritten by the model or searched with the fan's recent turns; any other question is searched
 * alone, so an old topic never answers a new one (and no model call is spent on it). English,
 * Spanish, French, German, Portuguese and Italian.
 */
export function looksLikeFollowUp(question: string): boolean {
  const words = question.trim().split(/\s+/).filter(Boolean);
  return (
    words.length > 0 &&
    words.length <= 15 &&
    (POINTING_BACK_PATTERN.test(question) || GOING_ON_PATTERN.test(question.trim()))
  );
}

/**
 * What to search for a fan's question in a conversation. Without earlier turns: the question. With
 * a model: the model rewrites the question so it stands alone ("How much whey goes in it?" after
 * "Tell me about the Granite Bowl" becomes "How much whey goes in the Granite Bowl?"). Without a
 * model, or when it fails or is slow: the question with the fan's last turns as context. A
 * question that does not look like a follow-up (`looksLikeFollowUp`) is searched alone.
 */
export async function searchQuery(
  model: BaseChatModel | null,
  earlier: EarlierTurn[],
  question: string,
  options: { timeoutMs?: number } = {},
): Promise<SearchQuery> {
  const recent = earlier.slice(-2 * FOLLOW_UP_FAN_TURNS);
  const fanTurns = recent
    .filter((t) => t.from === 'fan')
    .slice(-FOLLOW_UP_FAN_TURNS)
    .map((t) => t.text.slice(0, TURN_MAX_CHARS));
  // A question that does not point back is searched alone: the old topic must not answer a new one.
  if (fanTurns.length === 0 || !looksLikeFollowUp(question))
    return { question, context: [], rewritten: false };
  if (model) {
    try {
      const transcript = recent
        .map((t) => `${t.from === 'fan' ? 'Fan' : 'Assistant'}: ${t.text.slice(0, TURN_MAX_CHARS)}`)
        .join('\n');
      const signal = AbortSignal.timeout(options.timeoutMs ?? REWRITE_TIMEOUT_MS);
      const reply = await model.invoke(
        [
          {
            role: 'system',
            content:
              'Rewrite the fan\'s last question so that it can be understood without the conversation: replace words like "it", "that" or "this one" with what they refer to. Keep the fan\'s meaning and language. Answer with the rewritten question only. If it already stands alone, repeat it unchanged.',
          },
          { role: 'user', content: `Conversation:\n${transcript}\n\nLast question: ${question}` },
        ],
        { signal },
      );
      const text = contentText(reply.content).trim().replace(/^"|"$/g, '').slice(0, 1_000);
      if (text) return { question: text, context: [], rewritten: true };
    } catch {
      // The fan's turns below.
    }
  }
  return { question, context: fanTurns, rewritten: false };
}
