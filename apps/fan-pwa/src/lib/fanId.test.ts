import { FAN_ID_STORAGE_KEY } from '@fanpilot/contracts';
import { describe, expect, it } from 'vitest';
import {
  createFanId,
  type DeviceTraits,
  FAN_NAME_STORAGE_KEY,
  forgetFanId,
  getOrCreateFanId,
  hashTraits,
  isFanId,
  keepFanId,
  readFanName,
  saveFanName,
  secureRandomHex,
} from './fanId.ts';

const phone: DeviceTraits = {
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)',
  screen: '390x844x24',
  language: 'en-US',
  timeZone: 'Europe/Madrid',
};

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  };
}

describe('fan id', () => {
  it('is mobile_fan_ + a hash of the device traits + _ + the time stamp + _ + 128 random bits', () => {
    const random = 'f'.repeat(32);
    const id = createFanId(phone, 1_760_000_000_000, random);
    expect(id).toBe(`mobile_fan_${hashTraits(phone)}_1760000000000_${random}`);
    const made = createFanId(phone, 1_760_000_000_000);
    expect(made).toMatch(/^mobile_fan_[a-z0-9]+_\d+_[0-9a-f]{32}$/);
    expect(isFanId(made)).toBe(true);
    expect(made.length).toBeLessThanOrEqual(200);
  });

  it('gives two phones of the same model, language and zone, at the same millisecond, different ids', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => createFanId(phone, 1_760_000_000_000)));
    expect(ids.size).toBe(1000);
  });

  it('takes its random part from the secure random source: 16 bytes', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const hex = secureRandomHex();
      expect(hex).toMatch(/^[0-9a-f]{32}$/);
      seen.add(hex);
    }
    expect(seen.size).toBe(1000);
    // Every hex digit shows up in every position over many draws: no fixed or time-based part.
    for (let position = 0; position < 32; position++) {
      expect(new Set([...seen].map((hex) => hex[position])).size).toBe(16);
    }
  });

  it('does not end in the time stamp, whose digits the default name once showed', () => {
    const id = createFanId(phone, 1_760_000_001_234);
    expect(id.slice(-4)).not.toBe('1234');
    expect(id.split('_').at(-1)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('hashes the same traits the same way and different traits differently', () => {
    expect(hashTraits(phone)).toBe(hashTraits({ ...phone }));
    for (const change of [
      { userAgent: 'Android' },
      { screen: '412x915x24' },
      { language: 'es-ES' },
      { timeZone: 'America/Lima' },
    ]) {
      expect(hashTraits({ ...phone, ...change })).not.toBe(hashTraits(phone));
    }
  });

  it('is created once and kept under fanchat_fan_id across visits', () => {
    const storage = memoryStorage();
    const first = getOrCreateFanId(
      storage,
      () => phone,
      () => 1000,
    );
    expect(storage.data.get(FAN_ID_STORAGE_KEY)).toBe(first);
    const later = getOrCreateFanId(
      storage,
      () => ({ ...phone, language: 'fr' }),
      () => 9999,
    );
    expect(later).toBe(first);
  });

  it('keeps any stored id of at most 200 printable characters, in the product’s fan id format or not', () => {
    for (const kept of [
      'mobile_fan_test',
      'mobile_fan_ABC-123',
      'fan-from-an-older-page',
      `mobile_fan_${'x'.repeat(189)}`,
    ]) {
      const storage = memoryStorage({ [FAN_ID_STORAGE_KEY]: kept });
      const id = getOrCreateFanId(
        storage,
        () => phone,
        () => 42,
      );
      expect(id).toBe(kept);
      expect(storage.data.get(FAN_ID_STORAGE_KEY)).toBe(kept);
    }
  });

  it('replaces a stored value that is empty, blank, too long or unprintable', () => {
    for (const bad of ['', '   ', 'x'.repeat(201), 'mobile_fan_a\nb', 'mobile_fan_\u0000', 'a\u0085b']) {
      const storage = memoryStorage({ [FAN_ID_STORAGE_KEY]: bad });
      const id = getOrCreateFanId(
        storage,
        () => phone,
        () => 42,
        () => 'a'.repeat(32),
      );
      expect(id).toBe(`mobile_fan_${hashTraits(phone)}_42_${'a'.repeat(32)}`);
      expect(storage.data.get(FAN_ID_STORAGE_KEY)).toBe(id);
    }
  });

  it('isFanId: at most 200 printable characters, not blank', () => {
    expect(isFanId('mobile_fan_test')).toBe(true);
    expect(isFanId('a'.repeat(200))).toBe(true);
    expect(isFanId('a'.repeat(201))).toBe(false);
    expect(isFanId('')).toBe(false);
    expect(isFanId(null)).toBe(false);
    expect(isFanId(42)).toBe(false);
    expect(isFanId('tab\there')).toBe(false);
  });

  it('still gives one stable id for the session when storage throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    const a = getOrCreateFanId(
      broken,
      () => phone,
      () => 1,
    );
    const b = getOrCreateFanId(
      broken,
      () => phone,
      () => 2,
    );
    expect(isFanId(a)).toBe(true);
    expect(b).toBe(a);
    forgetFanId(broken as unknown as Parameters<typeof forgetFanId>[0]);
  });

  it('keeps an id a transfer link brought, and forgets it for a fresh start', () => {
    const storage = memoryStorage({ [FAN_ID_STORAGE_KEY]: 'mobile_fan_old' });
    keepFanId(storage, 'mobile_fan_moved_here');
    expect(getOrCreateFanId(storage)).toBe('mobile_fan_moved_here');
    forgetFanId(storage);
    expect(storage.data.has(FAN_ID_STORAGE_KEY)).toBe(false);
    const fresh = getOrCreateFanId(storage, () => phone);
    expect(fresh).toMatch(/^mobile_fan_[a-z0-9]+_\d+_[0-9a-f]{32}$/);
    expect(storage.data.get(FAN_ID_STORAGE_KEY)).toBe(fresh);
  });
});

describe('fan display name', () => {
  it('is trimmed, collapsed and kept locally', () => {
    const storage = memoryStorage();
    expect(saveFanName(storage, '  Ana   María ')).toBe('Ana María');
    expect(storage.data.get(FAN_NAME_STORAGE_KEY)).toBe('Ana María');
    expect(readFanName(storage)).toBe('Ana María');
    expect(readFanName(memoryStorage())).toBe('');
  });
});
