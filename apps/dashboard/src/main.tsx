import './zod-without-eval.ts';
import { Toaster } from '@fanpilot/ui';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { queryClient } from './lib/query-client.ts';
import { router } from './router.tsx';
import { TEXT } from './texts.ts';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster closeLabel={TEXT.common.close} label={TEXT.common.notification} />
    </QueryClientProvider>
  </StrictMode>,
);
