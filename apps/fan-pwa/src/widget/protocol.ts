// The messages between the loader (on the creator's page) and the chat frame (on our origin). The
// loader keeps the fan's id and token in the page's own storage (first-party to the creator's site,
// so third-party-cookie blocking does not touch it); the frame asks for them, and asks to keep
// changes. Each side checks the other's origin and window before reading anything.

/** The frame is ready: send it what is kept. */
export const READY = 'fanpilot:ready';
/** The loader's answer: the kept values (a string map). */
export const STATE = 'fanpilot:state';
/** The frame's changes to keep (the whole map). */
export const SAVE = 'fanpilot:save';
/** Close the panel (Escape in the frame). */
export const CLOSE = 'fanpilot:close';

export type KeptState = Record<string, string>;

export interface WidgetMessage {
  type: typeof READY | typeof STATE | typeof SAVE | typeof CLOSE;
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

/** The key the frame keeps the fan token under. */
export const FAN_TOKEN_KEY = 'fanpilot_fan_token';
