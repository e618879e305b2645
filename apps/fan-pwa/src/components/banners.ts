import { useCallback, useSyncExternalStore } from 'react';

export type Banner = 'offline' | 'push' | 'personal' | 'announcement';

/**
 * The one banner under the fan app's header (issue 29: at most one at a time, so the phone screen
 * stays calm), the most urgent first: no connection (nothing else works); the notification offer
 * (shown once, right after the fan's first question, until the fan chooses); that the creator
 * answers personally (the AI cannot now); the creator's announcement (until dismissed).
 */
export function whichBanner(wanted: {
  offline: boolean;
  pushOffer: boolean;
  personal: boolean;
  announcement: boolean;
}): Banner | null {
  if (wanted.offline) return 'offline';
  if (wanted.pushOffer) return 'push';
  if (wanted.personal) return 'personal';
  if (wanted.announcement) return 'announcement';
  return null;
}

const key = (creator: string) => `fanpilot.notice-dismissed.${creator.toLowerCase()}`;
const CHANGED = 'fanpilot-notice-dismissed';

/**
 * The id of the announcement the fan dismissed for this creator (localStorage): that one stays
 * hidden; a new announcement (another id) shows again.
 */
export function useDismissedNotice(creator: string): [string | null, (id: string | undefined) => void] {
  const dismissed = useSyncExternalStore(
    (notify) => {
      window.addEventListener(CHANGED, notify);
      window.addEventListener('storage', notify);
      return () => {
        window.removeEventListener(CHANGED, notify);
        window.removeEventListener('storage', notify);
      };
    },
    () => {
      try {
        return localStorage.getItem(key(creator));
      } catch {
        return null;
      }
    },
  );
  const dismiss = useCallback(
    (id: string | undefined) => {
      if (!id) return;
      try {
        localStorage.setItem(key(creator), id);
      } catch {
        // No storage: it stays until the page reloads.
      }
      window.dispatchEvent(new Event(CHANGED));
    },
    [creator],
  );
  return [dismissed, dismiss];
}
