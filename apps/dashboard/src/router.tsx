import { createBrowserRouter } from 'react-router';
import { PageLoading } from './components/PageLoading.tsx';
import { RootLayout } from './components/RootLayout.tsx';
import { LandingPage } from './pages/LandingPage.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { RouteErrorPage } from './pages/RouteErrorPage.tsx';
import { creatorSignupLoader, dashboardLoader, landingLoader } from './routes/loaders.ts';

// Signed-in pages load their code on first visit, so the landing page stays light.
const dashboardPage = async () => ({ Component: (await import('./pages/DashboardPage.tsx')).DashboardPage });
const creatorSignupPage = async () => ({
  Component: (await import('./pages/CreatorSignupPage.tsx')).CreatorSignupPage,
});

/** docs/product.md#screens-and-addresses: the dashboard app's routes. */
export const router = createBrowserRouter([
  {
    Component: RootLayout,
    ErrorBoundary: RouteErrorPage,
    HydrateFallback: PageLoading,
    children: [
      { path: '/', loader: landingLoader, Component: LandingPage },
      { path: '/creator-signup', loader: creatorSignupLoader, lazy: creatorSignupPage },
      { path: '/dashboard/:username?', loader: dashboardLoader, lazy: dashboardPage },
      { path: '/admin/:username?', loader: dashboardLoader, lazy: dashboardPage },
      { path: '*', Component: NotFoundPage },
    ],
  },
]);
