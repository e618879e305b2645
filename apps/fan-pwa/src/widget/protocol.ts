// The messages between the loader (on the creator's page) and the chat frame (on our origin). The
// host page keeps nothing of the fan's: the frame holds the fan's identity itself (a partitioned
// cookie, record 0072). The only thing the loader still hands over is what a loader of before kept
// in the page's storage, once, so the frame can exchange it; the loader then deletes it. Nothing
// ever goes from the frame to the page but "close" and "moved". Each side checks the other's
// origin and window before reading anything.

/** The frame is ready: send it what an old loader kept, if anything. */
export const READY = 'fanpilot:ready';
/** The loader's answer: what an old loader kept in the page (a string map, empty when nothing). */
export const STATE = 'fanpilot:state';
/** The frame took over what the old loader kept: the loader deletes it from the page. */
export const MOVED = 'fanpilot:moved';
/** Close the panel (Escape in the frame). */
export const CLOSE = 'fanpilot:close';

export type KeptState = Record<string, string>;

export interface WidgetMessage {
  type: typeof READY | typeof STATE | typeof MOVED | typeof CLOSE;
  state?: KeptState;
}

/** Only strings, at most 20 keys of 500 characters: all a fan id, name and token need. */
export function cleanState(value: unknown): KeptState {
  const out: KeptState = {};
  if (typeof value !== 'object' || value === null) return out;
  for (const [key, v] of Object.entries(value).slice(0, 20)) {
    if (typeof v === 'string' && key.length <= 100 && v.length <= 500) out[key] = v;
  }
  return out;
}

/** The key an old loader kept the fan token under (in the host page's storage, before record 0072). */
export const FAN_TOKEN_KEY = 'fanpilot_fan_token';

/** Where an old loader kept the fan's values in the host page's localStorage. */
export const legacyKey = (productOrigin: string, username: string) =>
  `fanpilot.widget.${productOrigin}.${username.toLowerCase()}`;
