import type { CurrentUser } from '@fanpilot/contracts';

/** docs/product.md#where-a-signed-in-creator-goes: onboarded creators belong on their dashboard, everyone else on the signup page. */
export function homeFor(user: Pick<CurrentUser, 'onboardingComplete' | 'username'>): string {
  return user.onboardingComplete ? dashboardPath(user.username) : '/creator-signup';
}

export function dashboardPath(username: string, prefix: 'dashboard' | 'admin' = 'dashboard'): string {
  return `/${prefix}/${encodeURIComponent(username)}`;
}

export const pwaPath = (username: string) => `/pwa/${encodeURIComponent(username)}`;

/** The creator's shareable addresses on this origin: the admin dashboard and the fan chat app. */
export function creatorLinks(username: string, origin: string = window.location.origin) {
  return {
    admin: `${origin}${dashboardPath(username, 'admin')}`,
    pwa: `${origin}${pwaPath(username)}`,
  };
}
