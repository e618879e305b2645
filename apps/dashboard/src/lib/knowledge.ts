import { type KnowledgeItem, type KnowledgeProgress, urlOf } from '@fanpilot/contracts';
import { safeHref } from '@fanpilot/ui/linkify';
import { TEXT } from '../texts.ts';

const t = TEXT.knowledge;

/** docs/product.md#sources: 'YouTube Video', the file name, 'Web URL', or 'Unknown Source'. */
export function knowledgeTitle(
  item: Pick<KnowledgeItem, 'type' | 'fileName'> & { title?: string | null | undefined },
): string {
  if (item.type === 'youtube') return t.titles.youtube;
  if (item.type === 'file') return item.fileName?.trim() || t.titles.unknown;
  // A page is called by its own title once it was read (issue 29); 'Web URL' until then.
  if (item.type === 'url') return item.title?.trim() || t.titles.url;
  return t.titles.unknown;
}

/** A size in bytes as a person reads it: '820 B', '14 KB', '1.2 MB'. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * The line under an item's title: a video's real name (its title stays the specified 'YouTube Video'),
 * a file's size (its title is its name), a page's address.
 */
export function knowledgeSource(
  item: Pick<KnowledgeItem, 'type' | 'url' | 'youtubeUrl' | 'fileName'> & {
    source?: string | undefined;
    title?: string | null | undefined;
    fileSize?: number | null | undefined;
  },
): string {
  if (item.type === 'youtube') {
    const name = item.title?.trim();
    if (name && name !== t.titles.youtube) return name;
    return item.source || item.youtubeUrl || item.url || '';
  }
  if (item.type === 'file') {
    if (typeof item.fileSize === 'number' && item.fileSize >= 0) return formatBytes(item.fileSize);
    return item.source || item.fileName || '';
  }
  return item.source || item.url || '';
}

/**
 * An address the open-link icon points at: a page's or video's own (http(s) only), or for a file the
 * creator's own copy (the knowledgeFile call, issue 29).
 */
export function knowledgeLink(
  item: Pick<KnowledgeItem, 'type' | 'url' | 'youtubeUrl'> & { id?: string },
): string | null {
  if (item.type === 'file') return item.id ? urlOf('knowledgeFile', { id: item.id }) : null;
  const candidate = item.type === 'youtube' ? (item.youtubeUrl ?? item.url) : item.url;
  return candidate ? safeHref(candidate) : null;
}

/** The texts of the progress bar: percentage, 'N of M sources ready' and 'Complete' or 'N pending'. */
export function progressTexts(
  progress: Pick<
    KnowledgeProgress,
    'total' | 'active' | 'pending' | 'failed' | 'progressPercentage' | 'isComplete'
  >,
) {
  const failed = progress.failed ?? 0;
  // The share of sources that are ready: a failed source is never counted as done (issue 29).
  const percentage =
    progress.total > 0
      ? Math.min(100, Math.max(0, Math.floor((progress.active / progress.total) * 100)))
      : Math.min(100, Math.max(0, Math.round(progress.progressPercentage)));
  // Failed sources are counted apart: never 'Complete' while one of them failed.
  const badgeText =
    progress.pending > 0 ? t.pending(progress.pending) : failed > 0 ? t.failedCount(failed) : t.complete;
  return {
    percentage,
    percentageText: `${percentage}%`,
    readyText:
      failed > 0
        ? t.readyAndFailed(progress.active, progress.total, failed)
        : t.ready(progress.active, progress.total),
    badgeText,
    tone:
      progress.pending > 0 ? ('warning' as const) : failed > 0 ? ('danger' as const) : ('success' as const),
  };
}
