import { useCallback, useSyncExternalStore } from 'react';

export type Banner = 'offline' | 'push' | 'personal' | 'announcement';

/**
 * The notices under the fan app's header, top to bottom (record 0073: information always shows; an
 * offer waits its turn). Information first, each in its own row: no connection (nothing else works),
 * that the creator answers personally (the AI cannot now), the creator's announcement (until
 * dismissed). The notification offer (after the fan's first question, until the fan chooses) comes
 * last, below whatever information there is, and not while offline (it cannot be taken up then).
 */
export function whichBanners(wanted: {
  offline: boolean;
  pushOffer: boolean;
  personal: boolean;
  announcement: boolean;
}): Banner[] {
  const shown: Banner[] = [];
  if (wanted.offline) shown.push('offline');
  if (wanted.personal) shown.push('personal');
  if (wanted.announcement) shown.push('announcement');
  if (wanted.pushOffer && !wanted.offline) shown.push('push');
  return shown;
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
