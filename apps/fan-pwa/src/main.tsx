import './zod-without-eval.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import {
  captureInstallPrompt,
  registerServiceWorker,
  trackVisualViewport,
  whenServiceWorkerTakesControl,
} from './lib/browser.ts';
import { AppRoutes } from './router.tsx';
import './styles.css';

captureInstallPrompt();
trackVisualViewport();
registerServiceWorker();

// docs/product.md#staying-fresh: cached data never goes stale by time, no refetch on focus, no retries.
const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: Number.POSITIVE_INFINITY, refetchOnWindowFocus: false, retry: false },
    mutations: { retry: false },
  },
});

// The first visit's reads happen before the worker controls the page: made again through it, they are kept for offline.
whenServiceWorkerTakesControl(() => void queryClient.refetchQueries({ type: 'active' }));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AppRoutes />
    </QueryClientProvider>
  </StrictMode>,
);
