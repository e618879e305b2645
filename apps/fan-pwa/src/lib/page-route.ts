/** The fan app's pages (docs/product.md#screens-and-addresses), by address. */
export type FanPage = { kind: 'chat'; username: string } | { kind: 'noCreator' } | { kind: 'notFound' };

const PWA = /^\/pwa\/([^/]+)\/?$/i;
const MOBILE_CHAT = /^\/(?:fanchat-mobile|mobile-chat)\/?$/i;

const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/**
 * The page an address shows: /pwa/{username}, /fanchat-mobile and /mobile-chat (?creator=<username>,
 * else `defaultCreator`), anything else not found. The app never navigates within itself, so the
 * address is read once (record 0082: no router library on the first screen).
 */
export function fanPageFor(pathname: string, search: string, defaultCreator = ''): FanPage {
  const pwa = PWA.exec(pathname);
  if (pwa?.[1]) return { kind: 'chat', username: decoded(pwa[1]) };
  if (MOBILE_CHAT.test(pathname)) {
    const creator = (new URLSearchParams(search).get('creator') ?? '').trim() || defaultCreator;
    return creator ? { kind: 'chat', username: creator } : { kind: 'noCreator' };
  }
  return { kind: 'notFound' };
}
