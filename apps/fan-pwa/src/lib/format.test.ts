import { describe, expect, it } from 'vitest';
import { formatMessageTime } from './format.ts';

describe('message time', () => {
  it('shows the clock time today and adds the date otherwise; nothing for a bad date', () => {
    const now = new Date('2026-11-22T15:00:00');
    expect(formatMessageTime('2026-11-22T09:05:00', now)).not.toMatch(/Nov/);
    expect(formatMessageTime('2026-11-20T09:05:00', now)).toMatch(/20/);
    expect(formatMessageTime('not a date', now)).toBe('');
  });
});
