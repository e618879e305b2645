// The signed-in half of the dashboard app, loaded only after the landing page (router.tsx): the
// typed api client and its schemas, the query cache, the dashboard and its loader. The creator signup
// page is its own chunk (signed-in-signup.tsx): a dashboard never loads it.
import type { LoaderFunctionArgs } from 'react-router';
import { initialSection, sectionEntry } from './components/dashboard/sections.ts';
import { withQueryClient } from './lib/with-query-client.tsx';
import { DashboardPage } from './pages/DashboardPage.tsx';
import { dashboardLoader as loadDashboard } from './routes/loaders.ts';

/** The dashboard's data, and beside it the code of the section the page opens on (record 0082). */
export const dashboardLoader = (args: LoaderFunctionArgs) => {
  sectionEntry(initialSection(new URL(args.request.url).search))
    .preload()
    .catch(() => {}); // Said where it is shown: the section's lazy load fails again, into the error page.
  return loadDashboard(args);
};

export const SignedInDashboard = withQueryClient(DashboardPage);
