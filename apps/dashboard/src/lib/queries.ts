import {
  type Billing,
  type Chatbot,
  CONVERSATION_PAGE_SIZE,
  CONVERSATIONS_PAGE_SIZE,
  type ConversationListFilter,
  type ConversationPage,
  type ConversationsPage,
  CURRENT_USER_CACHE_MS,
  type CurrentNoticeResponse,
  type CurrentUser,
  type InboxStats,
  type KnowledgeGap,
  type KnowledgeProgress,
  type Message,
  type Notice,
  type OnlineStatus,
  POLL_KNOWLEDGE_PROGRESS_MS,
  POLL_MESSAGES_MS,
  POLL_STATUS_MS,
  POLL_USAGE_MS,
  type Template,
  type Usage,
} from '@fanpilot/contracts';
import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query';
import { NEWEST_PAGE_META } from '../hooks/usePollNewestPage.ts';
import { apiRequest, getQueryFn, isApiStatus } from './api.ts';

/** GET /api/auth/user: null when signed out (401). Cached 5 minutes, no retry. */
export const currentUserQuery = queryOptions({
  queryKey: ['/api/auth/user'],
  queryFn: getQueryFn<CurrentUser>({ on401: 'returnNull' }),
  staleTime: CURRENT_USER_CACHE_MS,
  retry: false,
});

export const creatorPath = (username: string) =>
  ['/api/creators/username', encodeURIComponent(username)] as const;

/** The api path of a creator call, e.g. `/api/creators/username/mina/templates`. */
export const creatorUrl = (username: string, ...rest: string[]) =>
  [...creatorPath(username), ...rest].join('/');

/** How many of the newest messages the dashboard reads: enough for Recent Activity and the new-message toast. */
export const RECENT_MESSAGES_LIMIT = 20;

/**
 * `path` with a query string of the given parameters, in their order; empty and undefined values are
 * left out, e.g. `withSearch('conversations', { filter: 'all', q: '' })` is `conversations?filter=all`.
 */
export function withSearch(path: string, params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.append(name, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** The browser's IANA time zone, in which "today" is counted (UTC when the browser will not say). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** GET …/messages?limit=20: the newest messages, newest first, polled every 5 s (Recent Activity, the toast). */
export const messagesQuery = (username: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), withSearch('messages', { limit: RECENT_MESSAGES_LIMIT })],
    queryFn: getQueryFn<Message[]>({ on401: 'throw' }),
    refetchInterval: POLL_MESSAGES_MS,
    select: (data: Message[] | null) => data ?? [],
  });

/** GET …/stats?tz=: every count the dashboard shows, exact, with "today" in the browser's zone; polled every 5 s. */
export const inboxStatsQuery = (username: string, timeZone: string = browserTimeZone()) =>
  queryOptions({
    queryKey: [...creatorPath(username), withSearch('stats', { tz: timeZone })],
    queryFn: getQueryFn<InboxStats>({ on401: 'throw' }),
    refetchInterval: POLL_MESSAGES_MS,
    select: (data: InboxStats | null) => data ?? undefined,
  });

/** What Chat Management asks the conversations call for. */
export interface ConversationsParams {
  filter: ConversationListFilter;
  /** Part of a fan's name; blank for every fan. */
  q: string;
}

/** The address of one page of GET …/conversations. */
export function conversationsUrl(
  username: string,
  { filter, q }: ConversationsParams,
  cursor: string | null,
  limit: number = CONVERSATIONS_PAGE_SIZE,
): string {
  return creatorUrl(username, withSearch('conversations', { filter, q: q.trim(), cursor, limit }));
}

/**
 * GET …/conversations: every conversation, latest activity first, 25 a page (the cursor pages on).
 * Not polled as a whole: `usePollNewestPage` refreshes the first page every 5 s.
 */
export const conversationsQuery = (username: string, params: ConversationsParams) =>
  infiniteQueryOptions({
    queryKey: [...creatorPath(username), 'conversations', { filter: params.filter, q: params.q.trim() }],
    queryFn: ({ pageParam }) =>
      apiRequest<ConversationsPage>('GET', conversationsUrl(username, params, pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (last: ConversationsPage) => last.nextCursor,
    meta: NEWEST_PAGE_META,
    // A new filter or search keeps the rows on screen until its own answer comes.
    placeholderData: keepPreviousData,
  });

/** The address of one page of GET …/fans/{fanId}/conversation: the newest page without `before`. */
export function conversationPageUrl(
  username: string,
  fanId: string,
  before: string | null,
  limit: number = CONVERSATION_PAGE_SIZE,
): string {
  return creatorUrl(
    username,
    'fans',
    encodeURIComponent(fanId),
    withSearch('conversation', { before, limit }),
  );
}

/**
 * GET …/fans/{fanId}/conversation: a fan's conversation from its newest end, 50 messages a page; each
 * next page is older. Not polled as a whole: `usePollNewestPage` refreshes the newest page every 5 s.
 */
export const conversationQuery = (username: string, fanId: string) =>
  infiniteQueryOptions({
    queryKey: [...creatorPath(username), 'fans', encodeURIComponent(fanId), 'conversation'],
    queryFn: ({ pageParam }) =>
      apiRequest<ConversationPage>('GET', conversationPageUrl(username, fanId, pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (last: ConversationPage) => last.olderCursor,
    meta: NEWEST_PAGE_META,
  });

/** GET …/notice: the current announcement. */
export const noticeQuery = (username: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'notice'],
    queryFn: getQueryFn<CurrentNoticeResponse>({ on401: 'throw' }),
    select: (data: CurrentNoticeResponse | null) => data?.notice ?? null,
  });

/** GET …/notice-history: sent announcements, newest first. */
export const noticeHistoryQuery = (username: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'notice-history'],
    queryFn: getQueryFn<Notice[]>({ on401: 'throw' }),
    select: (data: Notice[] | null) => data ?? [],
  });

/** GET …/templates: saved replies, oldest first. */
export const templatesQuery = (username: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'templates'],
    queryFn: getQueryFn<Template[]>({ on401: 'throw' }),
    select: (data: Template[] | null) => data ?? [],
  });

/** GET …/usage: credits, polled every 60 s. */
export const usageQuery = (username: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'usage'],
    queryFn: getQueryFn<Usage>({ on401: 'throw' }),
    refetchInterval: POLL_USAGE_MS,
  });

/** GET /api/creators/username/{u}/billing: balance, purchases and AI answers per day; polled with usage. */
export const billingQuery = (username: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'billing'],
    queryFn: getQueryFn<Billing>({ on401: 'throw' }),
    refetchInterval: POLL_USAGE_MS,
  });

/** GET /api/creators/username/{u}/knowledge-gaps: ungrounded fan questions, grouped; polled with usage. */
export const knowledgeGapsQuery = (username: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'knowledge-gaps'],
    queryFn: getQueryFn<{ gaps: KnowledgeGap[] }>({ on401: 'throw' }),
    refetchInterval: POLL_USAGE_MS,
  });

/** GET /api/chatbots/{id}/knowledge/progress: processing progress and the items, polled every 5 s. */
export const knowledgeProgressQuery = (chatbotId: string) =>
  queryOptions({
    queryKey: ['/api/chatbots', encodeURIComponent(chatbotId), 'knowledge', 'progress'],
    queryFn: getQueryFn<KnowledgeProgress>({ on401: 'throw' }),
    refetchInterval: POLL_KNOWLEDGE_PROGRESS_MS,
  });

/** GET /api/creators/username/{u}/status, polled every 2 s. */
export const responseStatusQuery = (username: string) =>
  queryOptions<unknown, Error, OnlineStatus>({
    queryKey: [...creatorPath(username), 'status'],
    refetchInterval: POLL_STATUS_MS,
    select: readOnlineStatus,
  });

/** GET /api/creators/username/{u}/chatbot, no retry; a 404 means the creator has no chatbot. */
export const chatbotQuery = (username: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'chatbot'],
    queryFn: async (context): Promise<Chatbot | null> => {
      try {
        return await getQueryFn<Chatbot>({ on401: 'throw' })(context);
      } catch (error) {
        if (isApiStatus(error, 404)) return null;
        throw error;
      }
    },
    retry: false,
  });

/** The status answer's shape is not fixed by SPEC: read what is there, Offline otherwise. */
export function readOnlineStatus(data: unknown): OnlineStatus {
  const value = (data ?? {}) as { isOnline?: unknown; statusText?: unknown };
  const isOnline = value.isOnline === true;
  return {
    isOnline,
    statusText: typeof value.statusText === 'string' && value.statusText ? value.statusText : '',
  };
}
