import { createBrowserRouter } from 'react-router';
import { PageLoading } from './components/PageLoading.tsx';
import { RootLayout } from './components/RootLayout.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { RouteErrorPage } from './pages/RouteErrorPage.tsx';
import { landingLoader } from './routes/landing-loader.ts';

/**
 * Signed-in pages load their code, loaders included, on first visit, so the landing page stays
 * light (docs/decisions/0038-landing-loads-only-what-it-shows.md). zod is told not to compile
 * parsers before any schema is built: its own chunk runs first, then the signed-in half.
 */
const signedIn = async () => {
  await import('./zod-without-eval.ts');
  return import('./signed-in.tsx');
};
const signup = async () => {
  await import('./zod-without-eval.ts');
  return import('./signed-in-signup.tsx');
};
const landingPage = async () => ({ Component: (await import('./pages/LandingPage.tsx')).LandingPage });
const dashboardPage = async () => {
  const m = await signedIn();
  return { loader: m.dashboardLoader, Component: m.SignedInDashboard };
};
const creatorSignupPage = async () => {
  const m = await signup();
  return { loader: m.creatorSignupLoader, Component: m.SignedInCreatorSignup };
};

/** docs/product.md#screens-and-addresses: the dashboard app's routes. */
export const router = createBrowserRouter([
  {
    Component: RootLayout,
    ErrorBoundary: RouteErrorPage,
    HydrateFallback: PageLoading,
    children: [
      { path: '/', loader: landingLoader, lazy: landingPage },
      { path: '/creator-signup', lazy: creatorSignupPage },
      { path: '/dashboard/:username?', lazy: dashboardPage },
      { path: '/admin/:username?', lazy: dashboardPage },
      { path: '*', Component: NotFoundPage },
    ],
  },
]);
