import {
  type Chatbot,
  CURRENT_USER_CACHE_MS,
  type CurrentUser,
  type OnlineStatus,
  POLL_STATUS_MS,
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

const creatorPath = (username: string) => ['/api/creators/username', encodeURIComponent(username)] as const;

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
