import {
  type Billing,
  type Chatbot,
  CURRENT_USER_CACHE_MS,
  type CurrentNoticeResponse,
  type CurrentUser,
  type Fan,
  type KnowledgeGap,
  type KnowledgeProgress,
  type Message,
  type Notice,
  type OnlineStatus,
  POLL_FANS_MS,
  POLL_KNOWLEDGE_PROGRESS_MS,
  POLL_MESSAGES_MS,
  POLL_STATUS_MS,
  POLL_USAGE_MS,
  type Template,
  type Usage,
} from '@fanpilot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { getQueryFn, isApiStatus } from './api.ts';

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

/** GET …/messages: the creator's messages, newest first, polled every 5 s. */
export const messagesQuery = (username: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'messages'],
    queryFn: getQueryFn<Message[]>({ on401: 'throw' }),
    refetchInterval: POLL_MESSAGES_MS,
    select: (data: Message[] | null) => data ?? [],
  });

/** GET …/fans: the creator's fans, latest activity first, polled every 10 s. */
export const fansQuery = (username: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'fans'],
    queryFn: getQueryFn<Fan[]>({ on401: 'throw' }),
    refetchInterval: POLL_FANS_MS,
    select: (data: Fan[] | null) => data ?? [],
  });

/** GET …/fans/{fanId}/messages: one fan's whole conversation, oldest first; refreshed with the messages. */
export const fanMessagesQuery = (username: string, fanId: string) =>
  queryOptions({
    queryKey: [...creatorPath(username), 'fans', encodeURIComponent(fanId), 'messages'],
    queryFn: getQueryFn<Message[]>({ on401: 'throw' }),
    refetchInterval: POLL_MESSAGES_MS,
    select: (data: Message[] | null) => data ?? [],
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
