import type { ConversationPage, ConversationSummary, ConversationsPage, Message } from '@fanpilot/contracts';
import type { InfiniteData } from '@tanstack/react-query';
import { ANONYMOUS_FAN_NAME, byTime, isPending } from './conversations.ts';

/** Loaded pages of a paged list: page 0 is the newest, each cursor fetched the page after it. */
export type Pages<P> = InfiniteData<P, unknown>;

const restart = <P>(fresh: P): Pages<P> => ({ pages: [fresh], pageParams: [null] });

/** A fan's name as the dashboard shows it: an unnamed fan is 'Anonymous', as in every other list. */
export function fanDisplayName(name: string | null | undefined): string {
  return name?.trim() || ANONYMOUS_FAN_NAME;
}

/**
 * The tone of Chat Management's 'N messages waiting from M fans' badge: the warning colour only
 * while something waits; with nothing waiting the badge stays, calm and neutral.
 */
export function waitingBadgeTone(pendingQuestions: number): 'warning' | 'neutral' {
  return pendingQuestions > 0 ? 'warning' : 'neutral';
}

/**
 * The name on a fan's messages in a conversation: the conversation's fan name (the fan's current
 * name) for every one of them, so an early message sent under a default name ('Fan 5140') reads
 * the same as the rest. The message's own name only when the conversation has none.
 */
export function fanMessageAuthor(
  conversationFanName: string | null | undefined,
  messageFanName: string | null | undefined,
): string {
  return conversationFanName?.trim() || fanDisplayName(messageFanName);
}

/**
 * Chat Management's loaded conversations after a poll of the first page, without reloading the
 * pages after it:
 * - the fresh first page comes first;
 * - a loaded row the fresh page leaves out stays (after it) when it is older than the fresh page's
 *   oldest row: newer activity pushed it down. One as new or newer is gone (deleted, or it no longer
 *   matches the filter).
 * The fresh page has to reach a row that did not change since the last load, or activity may lie
 * between it and the loaded rows: then, as when it holds the whole list, it replaces them.
 */
export function mergeNewestConversations(
  data: Pages<ConversationsPage> | undefined,
  fresh: ConversationsPage,
): Pages<ConversationsPage> {
  const [first, ...rest] = data?.pages ?? [];
  const oldest = fresh.conversations.at(-1);
  if (!data || !first || !oldest || fresh.nextCursor === null) return restart(fresh);
  const loaded = new Map<string, ConversationSummary>();
  for (const page of data.pages) for (const row of page.conversations) loaded.set(row.fanId, row);
  const reachesLoaded = fresh.conversations.some(
    (row) => loaded.get(row.fanId)?.lastActivityAt === row.lastActivityAt,
  );
  if (!reachesLoaded) return restart(fresh);
  const freshIds = new Set(fresh.conversations.map((row) => row.fanId));
  const boundary = Date.parse(oldest.lastActivityAt);
  const keep = (row: ConversationSummary) =>
    !freshIds.has(row.fanId) && Date.parse(row.lastActivityAt) < boundary;
  return {
    pages: [
      {
        conversations: [...fresh.conversations, ...first.conversations.filter(keep)],
        nextCursor: first.nextCursor,
      },
      ...rest.map((page) => ({ ...page, conversations: page.conversations.filter(keep) })),
    ],
    pageParams: data.pageParams,
  };
}

/**
 * A fan's loaded conversation after a poll of its newest page, keeping the older pages loaded:
 * messages of the fresh page replace their loaded copies (a status may have changed); a loaded
 * message older than the fresh page's oldest stays; one inside its span but not in it was deleted.
 * A fresh page that shares no message with the loaded ones (more new messages than a page) or that
 * holds the whole conversation replaces them.
 */
export function mergeNewestMessages(
  data: Pages<ConversationPage> | undefined,
  fresh: ConversationPage,
): Pages<ConversationPage> {
  const [first, ...rest] = data?.pages ?? [];
  const oldest = fresh.messages[0];
  if (!data || !first || !oldest || fresh.olderCursor === null) return restart(fresh);
  const loaded = new Set(data.pages.flatMap((page) => page.messages.map((m) => m.id)));
  if (!fresh.messages.some((m) => loaded.has(m.id))) return restart(fresh);
  const freshIds = new Set(fresh.messages.map((m) => m.id));
  const keep = (m: Message) => !freshIds.has(m.id) && byTime(m, oldest) < 0;
  return {
    pages: [
      {
        ...fresh,
        messages: [...first.messages.filter(keep), ...fresh.messages],
        olderCursor: first.olderCursor,
      },
      ...rest.map((page) => ({ ...page, messages: page.messages.filter(keep) })),
    ],
    pageParams: data.pageParams,
  };
}

/** Every loaded message of a conversation, oldest first, each once. */
export function loadedMessages(data: Pages<ConversationPage> | undefined): Message[] {
  const byId = new Map<string, Message>();
  for (const page of data?.pages ?? []) for (const m of page.messages) if (!byId.has(m.id)) byId.set(m.id, m);
  return [...byId.values()].sort(byTime);
}

/** Every loaded conversation row, in the server's order, each fan once. */
export function loadedConversations(data: Pages<ConversationsPage> | undefined): ConversationSummary[] {
  const seen = new Set<string>();
  const rows: ConversationSummary[] = [];
  for (const page of data?.pages ?? []) {
    for (const row of page.conversations) {
      if (seen.has(row.fanId)) continue;
      seen.add(row.fanId);
      rows.push(row);
    }
  }
  return rows;
}

/**
 * The pending message that sending answers: the newest pending one loaded (the loaded messages are
 * the newest end of the conversation, so none newer is missing), else the row's `newestPending` when
 * that lies before the loaded messages, else none.
 */
export function newestPendingOf(loaded: readonly Message[], newestPending: Message | null): Message | null {
  const pending = loaded.filter(isPending).sort(byTime).at(-1);
  if (pending) return pending;
  if (!newestPending || loaded.some((m) => m.id === newestPending.id)) return null;
  const oldest = loaded[0];
  return !oldest || byTime(newestPending, oldest) < 0 ? newestPending : null;
}

/** Where the history's scroll stood: at the bottom, or which message was topmost and how far down. */
export type ScrollPlace = { atBottom: true } | { atBottom: false; anchorId: string; anchorOffset: number };

/** Within this many pixels of the end counts as at the bottom. */
export const AT_BOTTOM_SLACK_PX = 24;

/**
 * The place to keep: at the bottom, or the first message (by its top and height, in the list's
 * coordinates, in order) that is at least partly in view and how far below the top of the view it starts.
 */
export function scrollPlace(
  view: { scrollTop: number; scrollHeight: number; clientHeight: number },
  items: readonly { id: string; top: number; height: number }[],
): ScrollPlace {
  if (view.scrollHeight - view.scrollTop - view.clientHeight <= AT_BOTTOM_SLACK_PX) return { atBottom: true };
  const anchor = items.find((item) => item.top + item.height > view.scrollTop) ?? items.at(-1);
  if (!anchor) return { atBottom: true };
  return { atBottom: false, anchorId: anchor.id, anchorOffset: anchor.top - view.scrollTop };
}

/**
 * Where to scroll after the history changed: to the end when it was at the bottom (or the place is
 * lost), else so the anchor message sits as far below the top of the view as it did before.
 */
export function restoredScrollTop(
  place: ScrollPlace | null,
  next: { scrollHeight: number; anchorTop: number | undefined },
): number {
  if (!place || place.atBottom || next.anchorTop === undefined) return next.scrollHeight;
  return Math.max(0, next.anchorTop - place.anchorOffset);
}
