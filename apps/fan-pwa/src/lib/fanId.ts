import { FAN_ID_PREFIX, FAN_ID_STORAGE_KEY } from '@fanpilot/contracts';

/** What the fan id is derived from (docs/product.md#fan-identity): the same phone gives the same hash. */
export interface DeviceTraits {
  userAgent: string;
  screen: string;
  language: string;
  timeZone: string;
}

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>;

export function readDeviceTraits(): DeviceTraits {
  let timeZone = '';
  try {
    timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone ?? '';
  } catch {
    timeZone = '';
  }
  return {
    userAgent: navigator.userAgent,
    screen: `${screen.width}x${screen.height}x${screen.colorDepth}`,
    language: navigator.language,
    timeZone,
  };
}

/** A short, stable, non-cryptographic hash (two FNV-1a passes) of the traits, in base 36. */
export function hashTraits(traits: DeviceTraits): string {
  const text = [traits.userAgent, traits.screen, traits.language, traits.timeZone].join('|');
  const pass = (seed: number) => {
    let h = seed >>> 0;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h.toString(36).padStart(7, '0');
  };
  return pass(0x811c9dc5) + pass(0x9e3779b9);
}

/** Random bytes in a fan id: 128 bits, so no two fans share one and none can be guessed. */
export const FAN_ID_RANDOM_BYTES = 16;

/** `FAN_ID_RANDOM_BYTES` bytes from the platform's secure random source, in hex. */
export function secureRandomHex(bytes: number = FAN_ID_RANDOM_BYTES): string {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(values, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The specified fan id: `mobile_fan_` + a hash of the device traits + `_` + the time stamp, followed by
 * `_` and 128 random bits. The traits and the time alone are shared by many phones and easy to
 * guess; the random part is what makes the id the fan's own (the api still trusts only the browser
 * the conversation is bound to).
 */
export function createFanId(
  traits: DeviceTraits,
  now: number = Date.now(),
  random: string = secureRandomHex(),
): string {
  return `${FAN_ID_PREFIX}${hashTraits(traits)}_${now}_${random}`;
}

/** Longest fan id kept from storage (the api takes at most 200 characters). */
export const FAN_ID_MAX_LENGTH = 200;

/** Control characters (C0, DEL, C1): what makes a stored value unprintable. */
const CONTROL_CHARACTER = /\p{Cc}/u;

/**
 * Whether a stored value is kept as the fan's id: any non-blank text of at most 200 printable
 * characters. Ids this app makes follow the specified `mobile_fan_<hash>_<time>` (and end in 128 random bits), but an id stored
 * otherwise (an earlier version of the page, a transfer link, a test) is kept as it is, so the
 * fan keeps their conversation.
 */
export function isFanId(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.trim().length > 0 &&
    value.length <= FAN_ID_MAX_LENGTH &&
    !CONTROL_CHARACTER.test(value)
  );
}

let sessionOnlyId: string | undefined;

/** Keeps `id` as this browser's fan id (a transfer link moved that fan's chat here). */
export function keepFanId(storage: KeyValueStore | null, id: string): void {
  sessionOnlyId = id;
  try {
    storage?.setItem(FAN_ID_STORAGE_KEY, id);
  } catch {
    // Kept for this page's life only.
  }
}

/** Forgets this browser's fan id: the next one is new (a fresh conversation). */
export function forgetFanId(storage: (KeyValueStore & Pick<Storage, 'removeItem'>) | null): void {
  sessionOnlyId = undefined;
  try {
    storage?.removeItem(FAN_ID_STORAGE_KEY);
  } catch {
    // Nothing kept to forget.
  }
}

/**
 * The fan's id, kept in localStorage under `fanchat_fan_id` across visits. When storage is blocked
 * (some private modes) the id lasts for this page's life instead.
 */
export function getOrCreateFanId(
  storage: KeyValueStore | null,
  traits: () => DeviceTraits = readDeviceTraits,
  now: () => number = Date.now,
  random: () => string = secureRandomHex,
): string {
  try {
    const stored = storage?.getItem(FAN_ID_STORAGE_KEY);
    if (isFanId(stored)) return stored;
  } catch {
    // Storage refused: fall through to an id for this session only.
  }
  if (sessionOnlyId) return sessionOnlyId;
  const id = createFanId(traits(), now(), random());
  try {
    if (!storage) throw new Error('no storage');
    storage.setItem(FAN_ID_STORAGE_KEY, id);
  } catch {
    sessionOnlyId = id;
  }
  return id;
}

export const FAN_NAME_STORAGE_KEY = 'fanchat_fan_name';
export const FAN_NAME_MAX_LENGTH = 100;

export function readFanName(storage: KeyValueStore | null): string {
  try {
    return (storage?.getItem(FAN_NAME_STORAGE_KEY) ?? '').slice(0, FAN_NAME_MAX_LENGTH);
  } catch {
    return '';
  }
}

export function saveFanName(storage: KeyValueStore | null, name: string): string {
  const clean = name.replace(/\s+/g, ' ').trim().slice(0, FAN_NAME_MAX_LENGTH);
  try {
    storage?.setItem(FAN_NAME_STORAGE_KEY, clean);
  } catch {
    // Not kept across visits, still used for this session.
  }
  return clean;
}
