import { QueryClient } from '@tanstack/react-query';

/**
 * docs/product.md#how-the-dashboard-stays-fresh: data refreshes by polling only. Cached data does not go stale by time, there is
 * no refetch on window focus and no retry unless a query asks for it.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        retry: false,
        staleTime: Number.POSITIVE_INFINITY,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
