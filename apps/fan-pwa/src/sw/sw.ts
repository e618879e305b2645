/// <reference lib="webworker" />
import { sendOutboxItem } from '../lib/api.ts';
import { idbOutboxStore } from '../lib/idbOutboxStore.ts';
import { createOutbox, OUTBOX_SYNC_TAG } from '../lib/outbox.ts';
import {
  CACHED_API_READ,
  creatorPhotoToKeep,
  FAN_PAGE_ROUTE,
  KEPT_ANSWER_HEADER,
  PUBLIC_CREATOR_READ,
  SHELL_INDEX,
} from '../lib/routes.ts';

declare const self: ServiceWorkerGlobalScope;
declare const __PRECACHE__: string[];
declare const __SW_VERSION__: string;

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

const SHELL_CACHE_PREFIX = 'fan-shell-';
const SHELL_CACHE = `${SHELL_CACHE_PREFIX}${__SW_VERSION__}`;
const DATA_CACHE = 'fan-data-v1';

const outbox = createOutbox(idbOutboxStore());

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll(__PRECACHE__))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key.startsWith(SHELL_CACHE_PREFIX) && key !== SHELL_CACHE) await caches.delete(key);
      }
      await self.clients.claim();
    })(),
  );
});

/** A page route: the network's page when there is one, else the precached shell. */
async function pageNetworkFirst(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (err) {
    const shell = await caches.match(SHELL_INDEX, { cacheName: SHELL_CACHE });
    if (shell) return shell;
    throw err;
  }
}

/**
 * A fan page's read: the network's answer when there is one (kept for later), else the last kept
 * answer, marked with KEPT_ANSWER_HEADER so the page knows it did not come from the server.
 */
async function readNetworkFirst(event: FetchEvent): Promise<Response> {
  const { request } = event;
  const cache = await caches.open(DATA_CACHE);
  let response: Response;
  try {
    response = await fetch(request);
  } catch (err) {
    const kept = await cache.match(request);
    if (kept) return markKept(kept);
    throw err;
  }
  if (response.ok) {
    await cache.put(request, response.clone());
    // The creator's photo is kept with their card, so the chat opened offline shows it too.
    if (PUBLIC_CREATOR_READ.test(new URL(request.url).pathname)) {
      event.waitUntil(keepCreatorPhoto(cache, response.clone()));
    }
  } else if (response.status === 403) {
    // The chat belongs to another browser now (moved with a transfer link): keep no copy of it.
    await cache.delete(request);
  }
  return response;
}

function markKept(kept: Response): Response {
  const headers = new Headers(kept.headers);
  headers.set(KEPT_ANSWER_HEADER, '1');
  return new Response(kept.body, { status: kept.status, statusText: kept.statusText, headers });
}

async function keepCreatorPhoto(cache: Cache, creatorRead: Response) {
  try {
    const url = creatorPhotoToKeep(await creatorRead.json(), self.location.origin);
    if (!url || (await cache.match(url))) return;
    const photo = await fetch(url, { credentials: 'same-origin' });
    if (photo.ok) await cache.put(url, photo);
  } catch {
    // The page falls back to the default avatar.
  }
}

async function shellFirst(request: Request): Promise<Response> {
  const kept = await caches.match(request, { cacheName: SHELL_CACHE });
  return kept ?? fetch(request);
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // The worker's scope is the whole origin (the fan routes share no prefix); it answers only for
  // the fan app and leaves every other request, the dashboard's included, to the browser.
  if (request.mode === 'navigate') {
    if (FAN_PAGE_ROUTE.test(url.pathname)) event.respondWith(pageNetworkFirst(request));
    return;
  }
  if (url.pathname.startsWith('/fan/') && url.pathname !== '/fan/sw.js') {
    event.respondWith(shellFirst(request));
    return;
  }
  if (CACHED_API_READ.test(url.pathname) && fromFanPage(request)) event.respondWith(readNetworkFirst(event));
});

/** Whether a fan page asked; the dashboard's reads on the same origin are left alone and never kept. */
function fromFanPage(request: Request): boolean {
  try {
    const referrer = new URL(request.referrer);
    return (
      referrer.origin === self.location.origin &&
      (FAN_PAGE_ROUTE.test(referrer.pathname) || referrer.pathname.startsWith('/fan/'))
    );
  } catch {
    return false;
  }
}

async function flushOutbox() {
  const result = await outbox.flush(sendOutboxItem);
  if (result.sent.length || result.rejected.length) {
    const windows = await self.clients.matchAll({ type: 'window' });
    for (const client of windows) {
      client.postMessage({
        type: 'outbox-flushed',
        sent: result.sent.map((item) => item.id),
        rejected: result.rejected.map((item) => item.id),
      });
    }
  }
  // Tells Background Sync to try again later.
  if (result.remaining > 0) throw new Error(`${result.remaining} messages still waiting`);
}

self.addEventListener('sync', (event) => {
  const sync = event as SyncEvent;
  if (sync.tag === OUTBOX_SYNC_TAG) sync.waitUntil(flushOutbox());
});

interface PushMessage {
  title: string;
  body: string;
  url: string;
  tag: string;
}

/** What the api pushes (its push service's payload); anything else shows a plain notice. */
function readPush(event: PushEvent): PushMessage {
  try {
    const data = event.data?.json() as Partial<PushMessage> | undefined;
    if (data && typeof data.title === 'string' && typeof data.url === 'string') {
      return { title: data.title, body: data.body ?? '', url: data.url, tag: data.tag ?? 'fanpilot' };
    }
  } catch {
    // Not JSON: fall through.
  }
  return { title: 'New message', body: '', url: self.registration.scope, tag: 'fanpilot' };
}

const samePage = (a: string, b: string) => new URL(a).pathname === new URL(b).pathname;

// Web Push: a reply, an AI answer or an announcement. The notification opens that creator's chat.
// When the fan is looking at that chat already, it shows there and no notification is needed.
self.addEventListener('push', (event) => {
  const message = readPush(event);
  const url = new URL(message.url, self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      if (windows.some((w) => w.visibilityState === 'visible' && w.focused && samePage(w.url, url))) return;
      await self.registration.showNotification(message.title, {
        body: message.body,
        tag: message.tag,
        data: { url },
      });
    })(),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data as { url?: string } | null)?.url ?? self.registration.scope;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((w) => samePage(w.url, url));
      if (open) {
        await open.focus();
        if (open.url !== url) await open.navigate(url);
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
