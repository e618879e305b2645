import { MOBILE_CHAT_POST_SEND_REFRESH_MS, POLL_MOBILE_CHAT_MS } from '@fanpilot/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Draft } from '../components/Composer.tsx';
import { fetchFanChatlog, isOtherBrowsersChat, postAsk, sendOutboxItem } from '../lib/api.ts';
import { requestBackgroundSync } from '../lib/browser.ts';
import { embed } from '../lib/embed.ts';
import { forgetFanId, getOrCreateFanId, readFanName, saveFanName } from '../lib/fanId.ts';
import { newLocalId } from '../lib/format.ts';
import {
  clientIdsOf,
  fromOutboxItem,
  type LocalMessage,
  pendingLocalMessages,
} from '../lib/localMessages.ts';
import type { OutboxItem } from '../lib/outbox.ts';
import { sendFailure } from '../lib/sendFailure.ts';
import { texts } from '../texts.ts';
import { pageOutbox } from './pageOutbox.ts';
import { useFanLive } from './useFanLive.ts';

const storage = () => {
  const embedded = embed();
  if (embedded) return embedded.storage;
  try {
    return window.localStorage;
  } catch {
    return null;
  }
};

/** Everything the conversation needs: the fan, the history, the outbox and sending. */
export function useFanChat(creator: string) {
  const fanId = useMemo(() => getOrCreateFanId(storage()), []);
  const [fanName, setFanName] = useState(() => readFanName(storage()));
  const [queued, setQueued] = useState<OutboxItem[]>([]);
  const [sent, setSent] = useState<LocalMessage[]>([]);
  const [error, setErrorState] = useState<string | null>(null);
  /** The fan asked the assistant to forget ("forget everything", "don't remember that"): what was done. */
  const [forgot, setForgot] = useState<'cleared' | 'dropped' | null>(null);
  /** What to do about a failure beyond the specified text (e.g. when to try again after a 429), shown apart. */
  const [hint, setHint] = useState<string | null>(null);
  const [restore, setRestore] = useState<{ text: string; nonce: number } | null>(null);
  const [sendSignal, setSendSignal] = useState(0);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  const queuedRef = useRef(queued);
  queuedRef.current = queued;
  /** Outbox items whose direct send failed while online: their failure text goes once they are sent. */
  const failedInOutbox = useRef(new Set<string>());

  const setError = useCallback((message: string | null) => {
    setErrorState(message);
    setHint(null);
  }, []);

  const history = useQuery({
    queryKey: ['chatlog', creator, fanId],
    queryFn: async () => {
      const requestedAt = Date.now();
      const { messages, kept } = await fetchFanChatlog(fanId, creator);
      // A history the service worker kept (offline) is shown, but says nothing about recent sends.
      return { messages, requestedAt: kept ? undefined : requestedAt };
    },
    // The specified poll, also while the event stream is open (an unchanged poll is a 304).
    refetchInterval: POLL_MOBILE_CHAT_MS,
  });
  const { refetch } = history;
  const queryClient = useQueryClient();
  // The AI's answers as they are written (the stream's 'draft' events), by the question they answer.
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  useFanLive({
    fanId,
    creator,
    // Open from the first question on (as soon as it is taken), so its answer is seen being written.
    enabled: (history.data?.messages.length ?? 0) > 0 || sent.length > 0,
    onDraft: (draft) => {
      // Done with no text: the answer is stored (or failed). The draft stays until the chat log
      // read says what became of it, so the answer never blinks out in between.
      if (draft.done && !draft.text) {
        void refetch().finally(() => setDrafts(({ [draft.replyTo]: _dropped, ...rest }) => rest));
        return;
      }
      setDrafts((previous) => ({ ...previous, [draft.replyTo]: draft.text }));
    },
    onChange: () => {
      void refetch();
      void queryClient.invalidateQueries({ queryKey: ['creator', creator.toLowerCase()] });
    },
  });

  const refreshSoon = useCallback(() => {
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      void refetch();
    }, MOBILE_CHAT_POST_SEND_REFRESH_MS);
    timers.current.add(timer);
  }, [refetch]);

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) clearTimeout(timer);
    };
  }, []);

  const reloadQueued = useCallback(async () => {
    const items = await pageOutbox.list().catch(() => [] as OutboxItem[]);
    setQueued(items.filter((item) => item.creator === creator && item.fanId === fanId));
    return items;
  }, [creator, fanId]);

  const markSent = useCallback(
    (items: OutboxItem[]) => {
      if (!items.length) return;
      if (items.some((item) => failedInOutbox.current.delete(item.id))) {
        setErrorState((current) => (current === texts.sendFailed ? null : current));
      }
      const now = Date.now();
      setSent((current) => [...current, ...items.map((item) => fromOutboxItem(item, 'sent', now))]);
      refreshSoon();
    },
    [refreshSoon],
  );

  const markRejected = useCallback(
    (items: OutboxItem[]) => {
      const last = items[items.length - 1];
      if (!last) return;
      for (const item of items) failedInOutbox.current.delete(item.id);
      setError(texts.sendFailed);
      setRestore({ text: last.message, nonce: Date.now() });
    },
    [setError],
  );

  const flush = useCallback(async () => {
    if (!navigator.onLine) return;
    const result = await pageOutbox.flush(sendOutboxItem).catch(() => null);
    if (result) {
      markSent(result.sent);
      markRejected(result.rejected);
    }
    await reloadQueued();
  }, [markSent, markRejected, reloadQueued]);

  // Sends what waited: on opening, when the connection returns, and when the service worker did it.
  useEffect(() => {
    void reloadQueued().then(() => flush());
    const onOnline = () => void flush();
    const onWorkerMessage = (event: MessageEvent) => {
      const data = event.data as { type?: string; sent?: string[]; rejected?: string[] } | null;
      if (data?.type !== 'outbox-flushed') return;
      const sentIds = new Set(data.sent ?? []);
      const rejectedIds = new Set(data.rejected ?? []);
      const waiting = queuedRef.current;
      markSent(waiting.filter((item) => sentIds.has(item.id)));
      markRejected(waiting.filter((item) => rejectedIds.has(item.id)));
      void reloadQueued();
    };
    window.addEventListener('online', onOnline);
    navigator.serviceWorker?.addEventListener('message', onWorkerMessage);
    return () => {
      window.removeEventListener('online', onOnline);
      navigator.serviceWorker?.removeEventListener('message', onWorkerMessage);
    };
  }, [flush, reloadQueued, markSent, markRejected]);

  // A history read that reached the server proves the way is open: send anything still waiting.
  const requestedAt = history.data?.requestedAt;
  useEffect(() => {
    if (requestedAt && queued.length) void flush();
    // Only on a new read, not on every change of the queue.
  }, [requestedAt]);

  // Sent messages leave local state once the history has them.
  useEffect(() => {
    if (requestedAt) setSent((current) => pendingLocalMessages(current, requestedAt));
  }, [requestedAt]);

  const enqueue = async (item: OutboxItem) => {
    await pageOutbox.enqueue(item);
    await reloadQueued();
    void requestBackgroundSync();
  };

  const send = async (draft: Draft): Promise<boolean> => {
    const item: OutboxItem = {
      id: newLocalId(),
      creator,
      fanId,
      fanName: fanName || undefined,
      message: draft.text || draft.attachment?.filename || '',
      attachment: draft.attachment ?? undefined,
      createdAt: Date.now(),
    };
    if (!item.message) return false;
    setSendSignal((n) => n + 1);
    if (!navigator.onLine) {
      try {
        await enqueue(item);
        return true;
      } catch {
        setError(texts.sendFailed);
        return false;
      }
    }
    try {
      const asked = await postAsk(item);
      setForgot(asked.memory ?? null);
      markSent([item]);
      return true;
    } catch (err) {
      const failure = sendFailure(err);
      // No answer at all: the message may go out later, so it waits in the outbox (sent again with the
      // same Idempotency-Key, so it is taken once even if this try reached the server). The fan still
      // learns that this send failed (docs/product.md#screens).
      if (failure.queue) {
        try {
          await enqueue(item);
          failedInOutbox.current.add(item.id);
          setErrorState(failure.error);
          setHint(failure.hint);
          return true;
        } catch {
          // No outbox: the draft stays in the box for the fan to send again.
        }
      }
      setErrorState(failure.error);
      setHint(failure.hint);
      return false;
    }
  };

  const messages = history.data?.messages ?? [];
  const locals = pendingLocalMessages(
    [...queued.map((item) => fromOutboxItem(item, 'queued')), ...sent],
    history.data?.requestedAt,
    // A question the history already holds shows once, as stored, even while its send is confirmed.
    clientIdsOf(messages),
  );

  return {
    fanId,
    fanName,
    setFanName: (name: string) => setFanName(saveFanName(storage(), name)),
    messages,
    historyLoaded: history.isSuccess,
    /** The conversation under this fan id is held by another browser (403): this one may not use it. */
    heldElsewhere: isOtherBrowsersChat(history.error),
    /** Gives this browser a new fan id: a new, empty conversation. */
    startNewChat: () => {
      forgetFanId(storage());
      window.location.reload();
    },
    locals,
    /** AI answers being written, shown until the stored answer replaces them. */
    drafts: Object.entries(drafts).map(([replyTo, text]) => ({ replyTo, text })),
    send,
    error,
    hint,
    setError,
    forgot,
    restore,
    sendSignal,
  };
}
