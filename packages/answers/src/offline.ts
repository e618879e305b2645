import type { MessageSource } from '@fanpilot/contracts';
import type { KnowledgeExcerpt } from './prompt.ts';

const EXCERPT_MAX_CHARS = 700;

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

/**
 * The reply when nothing of the creator's matches the question: said plainly, not a personal
 * reply, and the question is in the creator's messages (docs/product.md#when-the-ai-answers: while Offline, the AI answers fans).
 */
export const offlineFallbackText = (creatorName: string) =>
  `${creatorName} is away right now and I couldn't find this in ${creatorName}'s material yet. This is not a personal reply: your question has been passed on to ${creatorName}.`;

/**
 * The answer given when no model key is configured for the chatbot's provider: the creator's own
 * best-matching material, quoted and labelled as a quote; or, when nothing matched, a polite
 * fallback that says so (no sources).
 */
export function offlineAnswer(
  creatorName: string,
  knowledge: KnowledgeExcerpt[],
): { text: string; sources: MessageSource[] } {
  const best = knowledge.find((k) => k.content.trim());
  if (!best) return { text: offlineFallbackText(creatorName), sources: [] };
  const source = { title: best.title, source: best.source };
  const text = [
    `${creatorName} is away right now. This is not a personal reply: I am quoting ${creatorName}'s own material that best matches your question.`,
    '',
    `"${excerpt(best.content)}"`,
  ].join('\n');
  return { text, sources: [source] };
}
