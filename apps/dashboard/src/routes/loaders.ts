import type { CurrentUser } from '@fanpilot/contracts';
import { toast } from '@fanpilot/ui';
import { type LoaderFunctionArgs, replace } from 'react-router';
import { dashboardPath, homeFor } from '../lib/destinations.ts';
import { loginErrorToast } from '../lib/login-errors.ts';
import { currentUserQuery } from '../lib/queries.ts';
import { queryClient } from '../lib/query-client.ts';
import { TEXT } from '../texts.ts';

const currentUser = () => queryClient.fetchQuery(currentUserQuery);

// Guards redirect with history.replaceState, so Back never lands on a page that bounces again.

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
  // The landing page must show even when the api cannot say who is signed in.
  const user = await currentUser().catch(() => null);
  if (user) throw replace(homeFor(user));
  return null;
}

/** `/creator-signup`: signed-in creators who have not finished onboarding. */
export async function creatorSignupLoader(): Promise<CurrentUser> {
  const user = await currentUser();
  if (!user) {
    toast({ title: TEXT.auth.requiredTitle, description: TEXT.auth.requiredDescription, variant: 'error' });
    throw replace('/');
  }
  if (user.onboardingComplete) throw replace(dashboardPath(user.username));
  return user;
}

/** `/dashboard/:username?` and `/admin/:username?`: the signed-in creator's own dashboard. */
export async function dashboardLoader({ request, params }: LoaderFunctionArgs): Promise<CurrentUser> {
  const user = await currentUser();
  if (!user) throw replace('/');
  if (!user.onboardingComplete) throw replace('/creator-signup');
  if (params.username !== user.username) {
    const prefix = new URL(request.url).pathname.startsWith('/admin') ? 'admin' : 'dashboard';
    throw replace(dashboardPath(user.username, prefix));
  }
  return user;
}
