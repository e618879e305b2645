import { POLL_MESSAGES_MS } from '@fanpilot/contracts';
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { Pages } from '../lib/inbox.ts';

/**
 * Polls only the first (newest) page of a paged list every 5 s and merges it into the loaded pages,
 * so a creator who paged far back does not refetch every page at each poll. Waits while the list is
 * being fetched anyway and while the tab is hidden.
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
    const poll = async () => {
      const { queryKey: key, fetchNewest: fetchPage, merge: mergePage } = latest.current;
      if (busy || document.hidden || queryClient.isFetching({ queryKey: key, exact: true }) > 0) return;
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
    };
    const timer = setInterval(poll, intervalMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
    // keyHash stands for queryKey.
  }, [enabled, intervalMs, keyHash, queryClient]);
}
