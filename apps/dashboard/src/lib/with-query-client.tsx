import { QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { queryClient } from './query-client.ts';

/** A signed-in page inside the app's one query cache. */
export const withQueryClient = (Page: ComponentType) =>
  function SignedInPage() {
    return (
      <QueryClientProvider client={queryClient}>
        <Page />
      </QueryClientProvider>
    );
  };
