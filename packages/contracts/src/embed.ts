// What an embedded chat (the website widget's frame, the browser extension) and the loader need at
// run time, apart from the schemas in widget.ts so that importing them loads no zod
// (docs/decisions/0051-a-fan-token-for-chats-without-cookies.md).

/**
 * The fan token of a chat that cannot hold the fan cookie (the widget's frame on another site, the
 * extension): the same secret the cookie carries, sent as a header. 32 random bytes, base64url.
 */
export const FAN_TOKEN_HEADER = 'x-fan-token';
export const FAN_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** The site (an origin) a widget chat is embedded in; the api checks it against the creator's list. */
export const WIDGET_SITE_HEADER = 'x-widget-site';

/** Sites one creator may list. */
export const WIDGET_SITES_MAX = 20;
export const WIDGET_LAUNCHER_TEXT_MAX_LENGTH = 40;
export const WIDGET_DEFAULTS = {
  color: '#4f46e5',
  position: 'right',
  launcherText: 'Chat with me',
} as const;
export const WIDGET_POSITIONS = ['right', 'left'] as const;
export type WidgetPosition = (typeof WIDGET_POSITIONS)[number];

/**
 * A site as the browser names it in Origin: scheme, host and port, nothing else. Accepts an address
 * with a path or a trailing slash (what people paste) and keeps its origin.
 */
export function siteOrigin(text: string): string | null {
  const trimmed = text.trim();
  if (!URL.canParse(trimmed)) return null;
  const url = new URL(trimmed);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password) return null;
  return url.origin;
}
