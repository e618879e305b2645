import type { CurrentUser } from '@fanpilot/contracts';
import { toast } from '@fanpilot/ui';
import { type LoaderFunctionArgs, replace } from 'react-router';
import { dashboardPath } from '../lib/destinations.ts';
import { currentUserQuery } from '../lib/queries.ts';
import { queryClient } from '../lib/query-client.ts';
import { TEXT } from '../texts.ts';

const currentUser = () => queryClient.fetchQuery(currentUserQuery);

// Guards redirect with history.replaceState, so Back never lands on a page that bounces again.

export { landingLoader } from './landing-loader.ts';

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
  if (!user) {
    // Said on the page it lands on: the landing page's toast.
    toast({
      title: TEXT.auth.requiredTitle,
      description: TEXT.auth.dashboardRequiredDescription,
      variant: 'error',
    });
    throw replace('/');
  }
  if (!user.onboardingComplete) throw replace('/creator-signup');
  if (params.username !== user.username) {
    const prefix = new URL(request.url).pathname.startsWith('/admin') ? 'admin' : 'dashboard';
    throw replace(dashboardPath(user.username, prefix));
  }
  return user;
}
