import { decodeLiveEvent, fanRoutes, LIVE_EVENT_NAMES, type LiveDraft, urlIn } from '@fanpilot/contracts';
import { EventSource as FetchEventSource } from 'eventsource';
import { useCallback, useEffect, useRef, useState } from 'react';
import { embed, embedFetch } from '../lib/embed.ts';

/** How long after a stream was refused (no conversation yet, offline) it is tried again; doubling to the cap. */
const RETRY_FIRST_MS = 10_000;
const RETRY_MAX_MS = 120_000;

export interface FanLive {
  /** Whether the event stream is open: polls slow down while it is. */
  connected: boolean;
  /** Try the stream again now (after the fan's first question starts the conversation). */
  retry: () => void;
}

/**
 * Reads the fan chat's events from `source` (an EventSource) with the live protocol of
 * packages/contracts: 'change' and 'sync' call `onChange`, 'draft' `onDraft`. An event it cannot
 * read is skipped (the poll goes on; a draft's stored answer follows). Returns the unsubscribe.
 */
export function listenToFanEvents(
  source: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>,
  handlers: { onChange: () => void; onDraft?: (draft: LiveDraft) => void },
): () => void {
  const listener = (event: Event) => {
    const data = (event as MessageEvent<unknown>).data;
    const live = typeof data === 'string' ? decodeLiveEvent(event.type, data) : null;
    if (!live) return;
    if (live.event === 'draft') handlers.onDraft?.(live.data);
    else handlers.onChange();
  };
  for (const name of LIVE_EVENT_NAMES) source.addEventListener(name, listener);
  return () => {
    for (const name of LIVE_EVENT_NAMES) source.removeEventListener(name, listener);
  };
}

/**
 * The fan chat's event stream (fanEvents): 'change' and 'sync'
 * mean re-read the chat, 'draft' is the AI's answer as it is written. The browser reconnects by
 * itself after a dropped connection (sending Last-Event-ID); a refused stream is tried again later.
 * Without EventSource the chat simply polls.
 */
export function useFanLive(options: {
  fanId: string;
  creator: string;
  /** Only a conversation that has begun has a stream; until then the chat polls. */
  enabled: boolean;
  onChange: () => void;
  onDraft?: (draft: LiveDraft) => void;
}): FanLive {
  const { fanId, creator, enabled } = options;
  const [connected, setConnected] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const handlers = useRef(options);
  handlers.current = options;
  const delay = useRef(RETRY_FIRST_MS);

  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const url = urlIn(fanRoutes, 'fanEvents', { fanId }, { creator });
    // An embed sends its fan token as a header, which the browser's EventSource cannot: the same
    // stream read through fetch (the eventsource package, the same protocol and reconnection).
    const source = embed()
      ? new FetchEventSource(url, { fetch: embedFetch })
      : new EventSource(url, { withCredentials: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    source.onopen = () => {
      delay.current = RETRY_FIRST_MS;
      setConnected(true);
    };
    listenToFanEvents(source, {
      onChange: () => handlers.current.onChange(),
      onDraft: (draft) => handlers.current.onDraft?.(draft),
    });
    source.onerror = () => {
      setConnected(false);
      // CONNECTING: the browser is reconnecting. CLOSED: refused for good; try again later.
      if (source.readyState === EventSource.CLOSED) {
        // The poll goes on meanwhile, at the specified interval.
        timer = setTimeout(() => setAttempt((n) => n + 1), delay.current);
        delay.current = Math.min(delay.current * 2, RETRY_MAX_MS);
      }
    };
    return () => {
      clearTimeout(timer);
      source.close();
      setConnected(false);
    };
  }, [fanId, creator, enabled, attempt]);

  const retry = useCallback(() => {
    if (!connected) {
      delay.current = RETRY_FIRST_MS;
      setAttempt((n) => n + 1);
    }
  }, [connected]);

  return { connected, retry };
}
