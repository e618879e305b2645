import { useEffect, useSyncExternalStore } from 'react';
import { OUTBOX_SYNC_TAG } from './outbox.ts';
import { SW_URL } from './routes.ts';

/** The service worker's scope is the origin's root: the fan routes share no prefix. */
export function registerServiceWorker() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => navigator.serviceWorker.register(SW_URL, { scope: '/' }).catch(() => undefined);
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}

/**
 * On a fan's first visit the page reads the creator and the chat before its service worker is
 * installed, so those reads go straight to the network and nothing is kept for offline use; the
 * next read of the creator would come only with the next poll. Calls `reread` once, when the
 * worker takes control of a page that opened without one, so the reads are made again through the
 * worker, which keeps them. A page the worker controlled from the start needs nothing.
 */
export function whenServiceWorkerTakesControl(reread: () => void) {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  if (navigator.serviceWorker.controller) return;
  navigator.serviceWorker.addEventListener('controllerchange', () => reread(), { once: true });
}

interface SyncManagerLike {
  register: (tag: string) => Promise<void>;
}

/** Asks the service worker to send the outbox when the connection returns, where the browser can. */
export async function requestBackgroundSync() {
  try {
    const registration = await navigator.serviceWorker?.getRegistration('/');
    const sync = (registration as (ServiceWorkerRegistration & { sync?: SyncManagerLike }) | undefined)?.sync;
    await sync?.register(OUTBOX_SYNC_TAG);
  } catch {
    // The page's own `online` listener still sends it.
  }
}

interface BeforeInstallPromptEvent extends Event {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let installPrompt: BeforeInstallPromptEvent | null = null;
const installListeners = new Set<() => void>();
const notifyInstall = () => {
  for (const listener of installListeners) listener();
};

/** Listens from the start: the browser may offer installation before React has rendered. */
export function captureInstallPrompt() {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    installPrompt = event as BeforeInstallPromptEvent;
    notifyInstall();
  });
  window.addEventListener('appinstalled', () => {
    installPrompt = null;
    notifyInstall();
  });
}

export function useInstallPrompt() {
  const prompt = useSyncExternalStore(
    (listener) => {
      installListeners.add(listener);
      return () => installListeners.delete(listener);
    },
    () => installPrompt,
  );
  return {
    canInstall: prompt !== null,
    install: async () => {
      if (!prompt) return;
      await prompt.prompt();
      await prompt.userChoice.catch(() => undefined);
      // A prompt can be used once.
      installPrompt = null;
      notifyInstall();
    },
  };
}

/** What the iPhone install hint is decided on: the page's user agent and display. */
export interface InstallHintEnv {
  userAgent: string;
  /** navigator.maxTouchPoints: iPadOS Safari says "Macintosh" in its user agent, with touch. */
  maxTouchPoints: number;
  /** navigator.standalone (iOS) or the display-mode media query: already opened from the home screen. */
  standalone: boolean;
  /** The page is a frame of another (the widget): it cannot be added to the home screen itself. */
  framed: boolean;
}

/**
 * iPhone and iPad browsers never fire beforeinstallprompt: the chat is installed with Share → Add
 * to Home Screen, which the fan is shown how to do (issue 36 item 9b). Not once it is installed
 * (standalone), nor inside another site's frame.
 */
export function needsIosInstallHint(env: InstallHintEnv): boolean {
  if (env.standalone || env.framed) return false;
  const ios = /\b(iPhone|iPad|iPod)\b/.test(env.userAgent);
  const iPadOs = /\bMacintosh\b/.test(env.userAgent) && env.maxTouchPoints > 1;
  return ios || iPadOs;
}

export function iosInstallHintWanted(): boolean {
  if (typeof window === 'undefined') return false;
  let framed = true;
  try {
    framed = window.self !== window.top;
  } catch {
    framed = true;
  }
  return needsIosInstallHint({
    userAgent: navigator.userAgent,
    maxTouchPoints: navigator.maxTouchPoints ?? 0,
    standalone:
      (navigator as Navigator & { standalone?: boolean }).standalone === true ||
      window.matchMedia?.('(display-mode: standalone)').matches === true,
    framed,
  });
}

export function useOnline(): boolean {
  return useSyncExternalStore(
    (listener) => {
      window.addEventListener('online', listener);
      window.addEventListener('offline', listener);
      return () => {
        window.removeEventListener('online', listener);
        window.removeEventListener('offline', listener);
      };
    },
    () => navigator.onLine,
  );
}

/**
 * Keeps --app-height and --app-top on the visual viewport, so an on-screen keyboard shrinks the
 * chat instead of covering the message box.
 */
export function trackVisualViewport() {
  const viewport = window.visualViewport;
  if (!viewport) return;
  const root = document.documentElement;
  const update = () => {
    root.style.setProperty('--app-height', `${Math.round(viewport.height)}px`);
    root.style.setProperty('--app-top', `${Math.round(viewport.offsetTop)}px`);
  };
  update();
  viewport.addEventListener('resize', update);
  viewport.addEventListener('scroll', update);
}

/** Points the page at the creator's web app manifest, so installing installs their chat. */
export function useCreatorDocument(username: string, title: string) {
  useEffect(() => {
    const href = `/pwa/${encodeURIComponent(username)}/manifest.webmanifest`;
    let link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
    if (!link) {
      link = document.createElement('link');
      link.rel = 'manifest';
      document.head.append(link);
    }
    if (link.getAttribute('href') !== href) link.setAttribute('href', href);
    document.title = title;
  }, [username, title]);
}
