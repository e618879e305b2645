import { AVATAR_IMAGE_SIZE, fanRoutes, patternIn, sizedImageUrl } from '@fanpilot/contracts';
/** The page routes the api answers with this app's index.html; the service worker serves them offline. */
export const FAN_PAGE_ROUTE = /^\/(pwa\/[^/]+\/?|fanchat-mobile\/?|mobile-chat\/?)$/;

/** API reads whose last answer is kept for offline use (network first). */
export const CACHED_API_READ = new RegExp(
  `^(${patternIn(fanRoutes, 'fanChatlog')}|${patternIn(fanRoutes, 'publicCreator')}|/pwa/[^/]+/manifest\\.webmanifest|/objects/uploads/.+)$`,
);

/** Files uploaded to the api, the creators' photos among them. */
const UPLOADED_FILE = /^\/objects\/uploads\/.+$/;

/** The creator's card (publicCreator). */
export const PUBLIC_CREATOR_READ = new RegExp(`^${patternIn(fanRoutes, 'publicCreator')}$`);

/**
 * Set by the service worker on an answer it served from what it kept because the network gave
 * none: the page shows it, but it is not a fresh read from the server.
 */
export const KEPT_ANSWER_HEADER = 'x-fanpilot-kept';

export const SHELL_INDEX = '/fan/index.html';
export const SW_URL = '/fan/sw.js';

/** Whether an answer came from the service worker's store rather than from the server. */
export function isKeptAnswer(headers: Pick<Headers, 'get'>): boolean {
  return headers.get(KEPT_ANSWER_HEADER) !== null;
}

/**
 * The creator's photo named in a public creator read, as an absolute URL at the avatar's size (what
 * the page shows, CreatorAvatar), when it is one the worker keeps (our own origin's uploads); null otherwise.
 */
export function creatorPhotoToKeep(body: unknown, origin: string): string | null {
  const src =
    body && typeof body === 'object' ? (body as { profileImageUrl?: unknown }).profileImageUrl : undefined;
  if (typeof src !== 'string' || !src) return null;
  try {
    const url = new URL(sizedImageUrl(src, AVATAR_IMAGE_SIZE), origin);
    return url.origin === origin && UPLOADED_FILE.test(url.pathname) ? url.href : null;
  } catch {
    return null;
  }
}
