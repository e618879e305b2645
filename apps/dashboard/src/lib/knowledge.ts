import type { KnowledgeItem, KnowledgeProgress } from '@fanpilot/contracts';
import { TEXT } from '../texts.ts';
import { safeHref } from './linkify.ts';

const t = TEXT.knowledge;

/** SPEC section 2: 'YouTube Video', the file name, 'Web URL', or 'Unknown Source'. */
export function knowledgeTitle(item: Pick<KnowledgeItem, 'type' | 'fileName'>): string {
  if (item.type === 'youtube') return t.titles.youtube;
  if (item.type === 'file') return item.fileName?.trim() || t.titles.unknown;
  if (item.type === 'url') return t.titles.url;
  return t.titles.unknown;
}

/** Where the item came from: the video link, the address, or the file name. */
export function knowledgeSource(
  item: Pick<KnowledgeItem, 'type' | 'url' | 'youtubeUrl' | 'fileName'> & { source?: string | undefined },
): string {
  if (item.source) return item.source;
  if (item.type === 'youtube') return item.youtubeUrl ?? item.url ?? '';
  if (item.type === 'url') return item.url ?? '';
  return item.fileName ?? '';
}

/** An address the open-link icon may point at: http(s) only; files have none. */
export function knowledgeLink(item: Pick<KnowledgeItem, 'type' | 'url' | 'youtubeUrl'>): string | null {
  if (item.type === 'file') return null;
  const candidate = item.type === 'youtube' ? (item.youtubeUrl ?? item.url) : item.url;
  return candidate ? safeHref(candidate) : null;
}

/** The texts of the progress bar: percentage, 'N of M sources ready' and 'Complete' or 'N pending'. */
export function progressTexts(
  progress: Pick<KnowledgeProgress, 'total' | 'active' | 'pending' | 'progressPercentage' | 'isComplete'>,
) {
  const percentage = Math.min(100, Math.max(0, Math.round(progress.progressPercentage)));
  return {
    percentage,
    percentageText: `${percentage}%`,
    readyText: t.ready(progress.active, progress.total),
    badgeText: progress.isComplete ? t.complete : t.pending(progress.pending),
  };
}
