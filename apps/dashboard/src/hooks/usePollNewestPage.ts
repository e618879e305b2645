import { POLL_MESSAGES_MS } from '@fanpilot/contracts';
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { Pages } from '../lib/inbox.ts';

/** Marks a paged query whose newest page `usePollNewestPage` keeps fresh. */
export const NEWEST_PAGE_META = { pollsNewestPage: true } as const;

const newestPageRequests = new EventTarget();

/**
 * Asks every paged list on screen to re-read its newest page now (a live event said something
 * changed), instead of refetching every page it has loaded.
 */
export function refreshNewestPages(): void {
  newestPageRequests.dispatchEvent(new Event('refresh'));
}

/**
 * Polls only the first (newest) page of a paged list every 5 s and merges it into the loaded pages,
 * so a creator who paged far back does not refetch every page at each poll. Waits while the list is
 * being fetched anyway and while the tab is hidden. `refreshNewestPages()` polls at once.
 */
export function usePollNewestPage<P>({
  queryKey,
  fetchNewest,
  merge,
  enabled,
  intervalMs = POLL_MESSAGES_MS,
}: {
  queryKey: QueryKey;
  fetchNewest: () => Promise<P>;
  merge: (data: Pages<P> | undefined, fresh: P) => Pages<P>;
  enabled: boolean;
  intervalMs?: number;
}): void {
  const queryClient = useQueryClient();
  // The latest callbacks, so a new render does not restart the timer.
  const latest = useRef({ queryKey, fetchNewest, merge });
  latest.current = { queryKey, fetchNewest, merge };
  const keyHash = JSON.stringify(queryKey);

  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    let busy = false;
    let again = false;
    const poll = async (): Promise<void> => {
      const { queryKey: key, fetchNewest: fetchPage, merge: mergePage } = latest.current;
      if (busy) {
        // Asked while a poll is under way: read once more after it, so no change is missed.
        again = true;
        return;
      }
      if (document.hidden || queryClient.isFetching({ queryKey: key, exact: true }) > 0) return;
      busy = true;
      try {
        const fresh = await fetchPage();
        if (stopped) return;
        // Only into loaded data: a list removed meanwhile is not brought back with one page.
        queryClient.setQueryData<Pages<P>>(key, (data) => (data ? mergePage(data, fresh) : data));
      } catch {
        // The next poll tries again; the list keeps what it shows.
      } finally {
        busy = false;
      }
      if (again && !stopped) {
        again = false;
        await poll();
      }
    };
    const timer = setInterval(poll, intervalMs);
    const now = () => void poll();
    newestPageRequests.addEventListener('refresh', now);
    return () => {
      stopped = true;
      clearInterval(timer);
      newestPageRequests.removeEventListener('refresh', now);
    };
    // keyHash stands for queryKey.
  }, [enabled, intervalMs, keyHash, queryClient]);
}
