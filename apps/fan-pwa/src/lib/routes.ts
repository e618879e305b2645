/** The page routes the api answers with this app's index.html; the service worker serves them offline. */
export const FAN_PAGE_ROUTE = /^\/(pwa\/[^/]+\/?|fanchat-mobile\/?|mobile-chat\/?)$/;

/** API reads whose last answer is kept for offline use (network first). */
export const CACHED_API_READ =
  /^\/(api\/chatlog\/fan\/[^/]+|api\/public\/creators\/[^/]+|pwa\/[^/]+\/manifest\.webmanifest|objects\/uploads\/.+)$/;

export const SHELL_INDEX = '/fan/index.html';
export const SW_URL = '/fan/sw.js';
