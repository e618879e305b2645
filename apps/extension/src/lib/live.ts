import { decodeLiveEvent, FAN_TOKEN_HEADER, fanRoutes, LIVE_EVENT_NAMES, urlIn } from '@fanpilot/contracts';
import { EventSource } from 'eventsource';
import type { ExtensionState } from './state.ts';

/** How long after a refused stream (no conversation yet, the api unreachable) it is tried again; doubling to the cap. */
export const STREAM_RETRY_FIRST_MS = 10_000;
export const STREAM_RETRY_MAX_MS = 120_000;

export interface ChatStream {
  /** Whether the stream is open (the panel then reads the chat on its events, and polls slowly). */
  readonly connected: boolean;
  /** Try a refused stream again now (after the fan's first message starts the conversation). */
  retryNow(): void;
  close(): void;
}

/**
 * The event stream of one followed chat (the fanEvents call, the fan app's live protocol), read
 * through `fetch` by the eventsource package because the fan token goes as a header and the
 * browser's EventSource sends none; no cookie. 'change' and 'sync' call `onChange` (re-read the
 * chat); 'draft' (the AI's answer while it is written) is left to the stored answer's 'change'.
 * A dropped stream reconnects by itself with Last-Event-ID; a refused one is tried again later.
 */
export function openChatStream(
  state: Pick<ExtensionState, 'origin' | 'token'>,
  chat: { fanId: string; username: string },
  handlers: { onChange: () => void; onConnected?: (connected: boolean) => void },
  retry: { firstMs: number; maxMs: number } = {
    firstMs: STREAM_RETRY_FIRST_MS,
    maxMs: STREAM_RETRY_MAX_MS,
  },
): ChatStream {
  const url = `${state.origin}${urlIn(fanRoutes, 'fanEvents', { fanId: chat.fanId }, { creator: chat.username })}`;
  let source: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let delay = retry.firstMs;
  let closed = false;
  let connected = false;
  const setConnected = (value: boolean) => {
    if (connected === value) return;
    connected = value;
    handlers.onConnected?.(value);
  };

  const connect = () => {
    clearTimeout(timer);
    source?.close();
    const es = new EventSource(url, {
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: { ...init.headers, [FAN_TOKEN_HEADER]: state.token },
          credentials: 'omit',
        }),
    });
    source = es;
    es.onopen = () => {
      delay = retry.firstMs;
      setConnected(true);
    };
    for (const name of LIVE_EVENT_NAMES) {
      es.addEventListener(name, (event) => {
        const live = typeof event.data === 'string' ? decodeLiveEvent(name, event.data) : null;
        if (live && live.event !== 'draft') handlers.onChange();
      });
    }
    es.onerror = () => {
      setConnected(false);
      // CONNECTING: reconnecting by itself. CLOSED: refused; try again later, less and less often.
      if (es.readyState === EventSource.CLOSED && !closed && source === es) {
        timer = setTimeout(connect, delay);
        delay = Math.min(delay * 2, retry.maxMs);
      }
    };
  };
  connect();

  return {
    get connected() {
      return connected;
    },
    retryNow() {
      if (closed || connected) return;
      delay = retry.firstMs;
      connect();
    },
    close() {
      closed = true;
      clearTimeout(timer);
      source?.close();
      setConnected(false);
    },
  };
}
