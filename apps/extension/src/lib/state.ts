import { FAN_ID_PREFIX } from '@fanpilot/contracts';

/** The origin the extension talks to: set at build time (FANPILOT_ORIGIN), changed in its options. */
declare const __FANPILOT_ORIGIN__: string;
export const BUILD_ORIGIN: string = __FANPILOT_ORIGIN__;

/** A creator the fan follows in the side panel: their chat under this browser's own fan id. */
export interface Follow {
  username: string;
  name: string;
  fanId: string;
  /** The newest reply (the creator's or the AI's) the fan has seen in the panel. */
  seenReplyId: string | null;
  /** The newest reply a notification was shown for. */
  notifiedReplyId: string | null;
}

export interface ExtensionState {
  origin: string;
  /** The fan token this browser's extension sends (32 random bytes, base64url); never leaves it but to the origin. */
  token: string;
  follows: Follow[];
}

const randomBytes = (n: number) => crypto.getRandomValues(new Uint8Array(n));
const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

export const newFanToken = () => base64url(randomBytes(32));
/** A fan id of the fan app's form (`mobile_fan_…`, 128 random bits), marked as the extension's. */
export const newFanId = () => `${FAN_ID_PREFIX}ext_${Date.now()}_${hex(randomBytes(16))}`;

/** What the extension keeps (chrome.storage.local: this browser profile only). */
export async function readState(): Promise<ExtensionState> {
  const kept = (await chrome.storage.local.get(['origin', 'token', 'follows'])) as Partial<ExtensionState>;
  let { token } = kept;
  if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(token)) {
    token = newFanToken();
    await chrome.storage.local.set({ token });
  }
  return {
    origin: typeof kept.origin === 'string' && kept.origin ? kept.origin : BUILD_ORIGIN,
    token,
    follows: Array.isArray(kept.follows) ? kept.follows : [],
  };
}

export async function saveFollows(follows: Follow[]): Promise<void> {
  await chrome.storage.local.set({ follows });
}

/** A creator's username as typed: a pasted /pwa/{username} address is read for its username. */
export function usernameFrom(text: string): string {
  const trimmed = text.trim();
  const fromAddress = /\/pwa\/([^/?#]+)/.exec(trimmed)?.[1];
  return decodeURIComponent(fromAddress ?? trimmed).replace(/^@/, '');
}
