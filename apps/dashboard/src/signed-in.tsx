// The signed-in half of the dashboard app, loaded only after the landing page (router.tsx): the
// typed api client and its schemas, the query cache, the signed-in pages and their loaders.
import { QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import type { LoaderFunctionArgs } from 'react-router';
import { initialSection, sectionEntry } from './components/dashboard/sections.ts';
import { queryClient } from './lib/query-client.ts';
import { CreatorSignupPage } from './pages/CreatorSignupPage.tsx';
import { DashboardPage } from './pages/DashboardPage.tsx';
import { dashboardLoader as loadDashboard } from './routes/loaders.ts';

export { creatorSignupLoader } from './routes/loaders.ts';

/** The dashboard's data, and beside it the code of the section the page opens on (record 0082). */
export const dashboardLoader = (args: LoaderFunctionArgs) => {
  sectionEntry(initialSection(new URL(args.request.url).search))
    .preload()
    .catch(() => {}); // Said where it is shown: the section's lazy load fails again, into the error page.
  return loadDashboard(args);
};

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
