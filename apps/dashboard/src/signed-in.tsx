// The signed-in half of the dashboard app, loaded only after the landing page (router.tsx): the
// typed api client and its schemas, the query cache, the signed-in pages and their loaders.
import { QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { queryClient } from './lib/query-client.ts';
import { CreatorSignupPage } from './pages/CreatorSignupPage.tsx';
import { DashboardPage } from './pages/DashboardPage.tsx';

export { creatorSignupLoader, dashboardLoader } from './routes/loaders.ts';

const withQueryClient = (Page: ComponentType) =>
  function SignedInPage() {
    return (
      <QueryClientProvider client={queryClient}>
        <Page />
      </QueryClientProvider>
    );
  };

export const SignedInDashboard = withQueryClient(DashboardPage);
export const SignedInCreatorSignup = withQueryClient(CreatorSignupPage);
