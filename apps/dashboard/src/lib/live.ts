import { decodeLiveEvent, LIVE_EVENT_NAMES, urlOf } from '@fanpilot/contracts';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { NEWEST_PAGE_META, refreshNewestPages } from '../hooks/usePollNewestPage.ts';
import { CHATBOTS_KEY, creatorPath } from './queries.ts';

/** How long after a refused stream (signed out, too many tabs) it is tried again; doubling to the cap. */
const RETRY_FIRST_MS = 10_000;
const RETRY_MAX_MS = 120_000;
/**
 * Events within this window are read together: a creator with many fans writing gets one round of
 * re-reads per window, not one per message.
 */
const COALESCE_MS = 750;

/**
 * Re-reads what an event says changed: the creator's calls, and the knowledge progress for knowledge.
 * The paged inbox lists (conversations, a conversation) re-read only their newest page, merged into
 * what is loaded, rather than every page the creator has loaded.
 */
export function refreshFor(queryClient: QueryClient, username: string, kinds: ReadonlySet<string>): void {
  void queryClient.invalidateQueries({
    queryKey: creatorPath(username),
    predicate: (query) => query.meta?.pollsNewestPage !== NEWEST_PAGE_META.pollsNewestPage,
  });
  refreshNewestPages();
  if (kinds.has('knowledge') || kinds.has('sync'))
    void queryClient.invalidateQueries({ queryKey: CHATBOTS_KEY });
}

/**
 * Reads the dashboard's events from `source` (an EventSource) with the live protocol of
 * packages/contracts and names what to re-read: a change's kind, or 'sync' for everything. An
 * event it cannot read is skipped (the polls go on). Returns the unsubscribe.
 */
export function listenToDashboardEvents(
  source: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>,
  reread: (kind: string) => void,
): () => void {
  const listener = (event: Event) => {
    const data = (event as MessageEvent<unknown>).data;
    const live = typeof data === 'string' ? decodeLiveEvent(event.type, data) : null;
    if (live?.event === 'change') reread(live.data.kind);
    else if (live?.event === 'sync') reread('sync');
  };
  for (const name of LIVE_EVENT_NAMES) source.addEventListener(name, listener);
  return () => {
    for (const name of LIVE_EVENT_NAMES) source.removeEventListener(name, listener);
  };
}

/**
 * The dashboard's event stream (the dashboardEvents call): each change makes the
 * queries it touches re-read at once (a 304 when what they show did not change), instead of at
 * the next poll. The polls stay as they are, the fallback when no stream can be held.
 */
export function useDashboardLive(username: string | undefined): boolean {
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const delay = useRef(RETRY_FIRST_MS);

  useEffect(() => {
    if (!username || typeof EventSource === 'undefined') return;
    const source = new EventSource(urlOf('dashboardEvents', { username }), {
      withCredentials: true,
    });
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    const kinds = new Set<string>();
    const schedule = (kind: string) => {
      kinds.add(kind);
      if (flushTimer) return;
      flushTimer = setTimeout(() => {
        flushTimer = undefined;
        refreshFor(queryClient, username, new Set(kinds));
        kinds.clear();
      }, COALESCE_MS);
    };
    source.onopen = () => {
      delay.current = RETRY_FIRST_MS;
      setConnected(true);
    };
    listenToDashboardEvents(source, schedule);
    source.onerror = () => {
      setConnected(false);
      if (source.readyState === EventSource.CLOSED) {
        retryTimer = setTimeout(() => setAttempt((n) => n + 1), delay.current);
        delay.current = Math.min(delay.current * 2, RETRY_MAX_MS);
      }
    };
    return () => {
      clearTimeout(retryTimer);
      clearTimeout(flushTimer);
      source.close();
      setConnected(false);
    };
  }, [username, queryClient, attempt]);

  return connected;
}
