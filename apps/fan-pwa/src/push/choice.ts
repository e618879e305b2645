import { useSyncExternalStore } from 'react';

/**
 * The fan's notification choice per creator, kept in localStorage: small and apart from the push
 * code (PushControls.tsx, loaded on demand), so the chat screen can tell whether the offer shows
 * without loading it (one banner at a time, issue 29).
 */
export type Choice = 'on' | 'off' | 'later';
export const choiceKey = (creator: string) => `fanpilot.push.${creator.toLowerCase()}`;
const CHANGED = 'fanpilot-push-changed';

function readChoice(creator: string): Choice | null {
  try {
    const v = localStorage.getItem(choiceKey(creator));
    return v === 'on' || v === 'off' || v === 'later' ? v : null;
  } catch {
    return null;
  }
}

export function saveChoice(creator: string, choice: Choice) {
  try {
    localStorage.setItem(choiceKey(creator), choice);
  } catch {
    // Private mode without storage: the choice lasts this page only.
  }
  window.dispatchEvent(new Event(CHANGED));
}

export function usePushChoice(creator: string): Choice | null {
  return useSyncExternalStore(
    (notify) => {
      window.addEventListener(CHANGED, notify);
      window.addEventListener('storage', notify);
      return () => {
        window.removeEventListener(CHANGED, notify);
        window.removeEventListener('storage', notify);
      };
    },
    () => readChoice(creator),
  );
}

/** The browser refuses notifications for this site (the fan, or its settings, said no). */
export const blocked = () => typeof Notification !== 'undefined' && Notification.permission === 'denied';
