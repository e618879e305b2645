import {
  type Answerer,
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
import { api, isApiStatus } from './api.ts';

/** The signed-in creator (currentUser): null when signed out (401). Cached 5 minutes, no retry. */
export const currentUserQuery = queryOptions({
  queryKey: ['currentUser'],
  queryFn: async (): Promise<CurrentUser | null> => {
    try {
      return await api.call('currentUser', {});
    } catch (error) {
      if (isApiStatus(error, 401)) return null;
      throw error;
    }
  },
  staleTime: CURRENT_USER_CACHE_MS,
  retry: false,
});

/** The start of every query key of a creator's calls: invalidating it re-reads them all. */
export const creatorPath = (username: string) => ['creator', username] as const;

/** How many of the newest messages the dashboard reads: enough for Recent Activity and the new-message toast. */
export const RECENT_MESSAGES_LIMIT = 20;

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
    queryKey: [...creatorPath(username), 'messages', { limit: RECENT_MESSAGES_LIMIT }],
    queryFn: (): Promise<Message[]> =>
      api.call('messages', { params: { username }, query: { limit: RECENT_MESSAGES_LIMIT } }),
    refetchInterval: POLL_MESSAGES_MS,
    select: (data: Message[] | null) => data ?? [],
  });

/** GET …/stats?tz=: every count the dashboard shows, exact, with "today" in the browser's zone; polled every 5 s. */
export const inboxStatsQuery = (username: string, timeZone: string = browserTimeZone()) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'stats', { tz: timeZone }],
    queryFn: (): Promise<InboxStats> =>
      api.call('inboxStats', { params: { username }, query: { tz: timeZone } }),
    refetchInterval: POLL_MESSAGES_MS,
    select: (data: InboxStats | null) => data ?? undefined,
  });

/** What Chat Management asks the conversations call for. */
export interface ConversationsParams {
  filter: ConversationListFilter;
  /** Part of a fan's name; blank for every fan. */
  q: string;
}

/** The start of the query keys of chatbot calls (knowledge progress). */
export const CHATBOTS_KEY = ['chatbots'] as const;

/** One page of the creator's conversations (a cursor pages on). */
export const fetchConversations = (
  username: string,
  { filter, q }: ConversationsParams,
  cursor: string | null,
  limit: number = CONVERSATIONS_PAGE_SIZE,
): Promise<ConversationsPage> =>
  api.call('conversations', { params: { username }, query: { filter, q: q.trim(), cursor, limit } });

/** One page of a fan's conversation: the newest without `before`. */
export const fetchConversationPage = (
  username: string,
  fanId: string,
  before: string | null,
  limit: number = CONVERSATION_PAGE_SIZE,
): Promise<ConversationPage> =>
  api.call('conversation', { params: { username, fanId }, query: { before, limit } });

/**
 * GET …/conversations: every conversation, latest activity first, 25 a page (the cursor pages on).
 * Not polled as a whole: `usePollNewestPage` refreshes the first page every 5 s.
 */
export const conversationsQuery = (username: string, params: ConversationsParams) =>
  infiniteQueryOptions({
    queryKey: [...creatorPath(username), 'conversations', { filter: params.filter, q: params.q.trim() }],
    queryFn: ({ pageParam }) => fetchConversations(username, params, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last: ConversationsPage) => last.nextCursor,
    meta: NEWEST_PAGE_META,
    // A new filter or search keeps the rows on screen until its own answer comes.
    placeholderData: keepPreviousData,
  });

/**
 * GET …/fans/{fanId}/conversation: a fan's conversation from its newest end, 50 messages a page; each
 * next page is older. Not polled as a whole: `usePollNewestPage` refreshes the newest page every 5 s.
 */
export const conversationQuery = (username: string, fanId: string) =>
  infiniteQueryOptions({
    queryKey: [...creatorPath(username), 'fans', fanId, 'conversation'],
    queryFn: ({ pageParam }) => fetchConversationPage(username, fanId, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last: ConversationPage) => last.olderCursor,
    meta: NEWEST_PAGE_META,
  });

/** GET …/notice: the current announcement. */
export const noticeQuery = (username: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'notice'],
    queryFn: (): Promise<CurrentNoticeResponse> => api.call('notice', { params: { username } }),
    select: (data: CurrentNoticeResponse | null) => data?.notice ?? null,
  });

/** GET …/notice-history: sent announcements, newest first. */
export const noticeHistoryQuery = (username: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'notice-history'],
    queryFn: (): Promise<Notice[]> => api.call('noticeHistory', { params: { username } }),
    select: (data: Notice[] | null) => data ?? [],
  });

/** GET …/templates: saved replies, oldest first. */
export const templatesQuery = (username: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'templates'],
    queryFn: (): Promise<Template[]> => api.call('templates', { params: { username } }),
    select: (data: Template[] | null) => data ?? [],
  });

/** GET …/usage: credits, polled every 60 s. */
export const usageQuery = (username: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'usage'],
    queryFn: (): Promise<Usage> => api.call('usage', { params: { username } }),
    refetchInterval: POLL_USAGE_MS,
  });

/** billing: balance, purchases and AI answers per day; polled with usage. */
export const billingQuery = (username: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'billing'],
    queryFn: (): Promise<Billing> => api.call('billing', { params: { username } }),
    refetchInterval: POLL_USAGE_MS,
  });

/** knowledgeGaps: ungrounded fan questions, grouped; polled with usage. */
export const knowledgeGapsQuery = (username: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'knowledge-gaps'],
    queryFn: (): Promise<{ gaps: KnowledgeGap[] }> => api.call('knowledgeGaps', { params: { username } }),
    refetchInterval: POLL_USAGE_MS,
  });

/** knowledgeProgress: processing progress and the items, polled every 5 s. */
export const knowledgeProgressQuery = (chatbotId: string) =>
  queryOptions({
    queryKey: [...CHATBOTS_KEY, chatbotId, 'knowledge', 'progress'],
    queryFn: (): Promise<KnowledgeProgress> => api.call('knowledgeProgress', { params: { id: chatbotId } }),
    refetchInterval: POLL_KNOWLEDGE_PROGRESS_MS,
  });

/** status: Online/Offline, polled every 2 s. */
export const responseStatusQuery = (username: string) =>
  queryOptions<unknown, Error, OnlineStatus>({
    queryKey: [...creatorPath(username), 'status'],
    queryFn: () => api.call('status', { params: { username } }),
    refetchInterval: POLL_STATUS_MS,
    select: readOnlineStatus,
  });

/** creatorChatbot, no retry; a 404 means the creator has no chatbot. */
export const chatbotQuery = (username: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'chatbot'],
    queryFn: async (): Promise<Chatbot | null> => {
      try {
        return await api.call('creatorChatbot', { params: { username } });
      } catch (error) {
        if (isApiStatus(error, 404)) return null;
        throw error;
      }
    },
    retry: false,
  });

/** The status answer's shape is not fixed by the product description (docs/product.md#online-and-offline): read what is there, Offline otherwise. */
export function readOnlineStatus(data: unknown): OnlineStatus {
  const value = (data ?? {}) as { isOnline?: unknown; statusText?: unknown };
  const isOnline = value.isOnline === true;
  return {
    isOnline,
    statusText: typeof value.statusText === 'string' && value.statusText ? value.statusText : '',
  };
}

/** Who really answers fans (the answerer call): the chatbot's model, or the embedded answerer. */
export const answererQuery = (username: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'answerer'],
    queryFn: (): Promise<Answerer> => api.call('answerer', { params: { username } }),
    staleTime: 60_000,
  });

/** The creator's corrections, newest first (the corrections call). */
export const correctionsQuery = (username: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'corrections'],
    queryFn: () => api.call('corrections', { params: { username } }),
  });

/** The fans who got a wrong answer that a correction corrects (the correctionFans call). */
export const correctionFansQuery = (username: string, id: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'corrections', id, 'fans'],
    queryFn: () => api.call('correctionFans', { params: { username, id } }),
  });

/** AI answers fans rated down (the poorAnswers call). */
export const poorAnswersQuery = (username: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'poorAnswers'],
    queryFn: () => api.call('poorAnswers', { params: { username } }),
    refetchInterval: POLL_USAGE_MS,
  });
