import { routes } from '@fanpilot/contracts';
import { toast } from '@fanpilot/ui';
import { type LoaderFunctionArgs, replace } from 'react-router';
import { homeFor } from '../lib/destinations.ts';
import { loginErrorToast } from '../lib/login-errors.ts';

// The landing page's own loader, kept apart from the signed-in pages' loaders so that the landing
// chunk holds no schema library and no query cache (docs/decisions/0038-landing-loads-only-what-it-shows.md).

/**
 * Who is signed in, read without the typed api client: only the two fields the landing page needs
 * to send a signed-in creator on. Any failure reads as signed out, so the page always shows.
 */
export async function signedInHome(): Promise<string | null> {
  try {
    const res = await fetch(routes.currentUser.path, {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
    if (!res.ok) return null;
    const user = (await res.json()) as { username?: unknown; onboardingComplete?: unknown };
    if (typeof user.username !== 'string') return null;
    return homeFor({ username: user.username, onboardingComplete: user.onboardingComplete === true });
  } catch {
    return null;
  }
}

/**
 * `/`: shows a sign-in error the server redirected with, clearing it from the address, and sends a
 * signed-in creator on to where they belong.
 */
export async function landingLoader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const loginError = loginErrorToast(url.searchParams);
  if (loginError) {
    toast({ ...loginError, variant: 'error' });
    return replace(url.pathname);
  }
  const home = await signedInHome();
  if (home) throw replace(home);
  return null;
}
