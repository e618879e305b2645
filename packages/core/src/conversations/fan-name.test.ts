import { describe, expect, it } from 'vitest';
import { defaultFanName } from './fan-name.ts';

describe('default fan name', () => {
  it('is "Fan" and four digits, the same for the same id', () => {
    const id = 'mobile_fan_0rqc0i10jrah6t_1760000001234_6f1c2b9a8d7e4f3a2b1c0d9e8f7a6b5c';
    expect(defaultFanName(id)).toMatch(/^Fan \d{4}$/);
    expect(defaultFanName(id)).toBe(defaultFanName(id));
  });

  it('shows nothing of the id: not the time stamp digits, not its last characters', () => {
    const shown = new Set<string>();
    for (let ms = 1_760_000_000_000; ms < 1_760_000_000_200; ms++) {
      const legacy = `mobile_fan_0rqc0i10jrah6t_${ms}`;
      const name = defaultFanName(legacy);
      // The old name was 'Fan ' + the id's last four characters: the millisecond of the first visit.
      expect(name).not.toBe(`Fan ${String(ms).slice(-4)}`);
      shown.add(name);
    }
    // Spread over the digits, not a function of the time stamp's tail.
    expect(shown.size).toBeGreaterThan(190);
  });

  it('differs for ids that differ only in their random part', () => {
    const base = 'mobile_fan_0rqc0i10jrah6t_1760000001234_';
    const names = new Set(
      Array.from({ length: 50 }, (_, i) => defaultFanName(`${base}${i.toString(16).padStart(32, '0')}`)),
    );
    expect(names.size).toBeGreaterThan(45);
  });
});
