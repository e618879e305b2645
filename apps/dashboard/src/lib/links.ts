import { dashboardPath, pwaPath } from './destinations.ts';

/** The creator's shareable addresses on this origin: the admin dashboard and the fan chat app. */
export function creatorLinks(username: string, origin: string = window.location.origin) {
  return {
    admin: `${origin}${dashboardPath(username, 'admin')}`,
    pwa: `${origin}${pwaPath(username)}`,
  };
}
