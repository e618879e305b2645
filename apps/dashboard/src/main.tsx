import { toast } from '@fanpilot/ui';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PageLoading } from './components/PageLoading.tsx';
import { SkipLink } from './components/SkipLink.tsx';
import { Toasts } from './components/Toasts.tsx';
import { loginErrorToast } from './lib/login-errors.ts';
import { signedInHome } from './routes/landing-loader.ts';
import './styles.css';

const element = document.getElementById('root');
if (!element) throw new Error('index.html has no #root element');
const root = createRoot(element);

/**
 * A signed-out visit to `/` renders the landing page with nothing else: no router, no api client,
 * no query cache. Every other page, and `/` for a signed-in creator, loads the app (app.tsx)
 * (docs/decisions/0038-landing-loads-only-what-it-shows.md).
 */
async function start() {
  if (window.location.pathname === '/') {
    // The landing page is a chunk of its own, so that no signed-in page loads it (issue 39); it is
    // fetched beside the question of who is signed in, so a signed-out visit waits no longer.
    const landing = import('./pages/LandingPage.tsx');
    landing.catch(() => {}); // A signed-in creator does not need it; a signed-out visit awaits it below.
    const loginError = loginErrorToast(new URLSearchParams(window.location.search));
    if (loginError) {
      toast({ ...loginError, variant: 'error' });
      window.history.replaceState(window.history.state, '', '/');
      return renderLanding(await landing);
    }
    const home = await signedInHome();
    if (!home) return renderLanding(await landing);
    window.history.replaceState(window.history.state, '', home);
  }
  root.render(<PageLoading />);
  const { App } = await import('./app.tsx');
  root.render(
    <StrictMode>
      <App />
      <Toasts />
    </StrictMode>,
  );
}

function renderLanding({ LandingPage }: typeof import('./pages/LandingPage.tsx')) {
  root.render(
    <StrictMode>
      <SkipLink />
      <LandingPage />
      <Toasts />
    </StrictMode>,
  );
}

void start();
