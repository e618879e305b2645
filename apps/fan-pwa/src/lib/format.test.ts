import { describe, expect, it } from 'vitest';
import { formatFileSize, formatMessageTime } from './format.ts';

describe('attachment size', () => {
  it('is shown in KB', () => {
    expect(formatFileSize(2048)).toBe('2.0 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(20)).toBe('0.1 KB');
    expect(formatFileSize(512_000)).toBe('500 KB');
    expect(formatFileSize(10 * 1024 * 1024)).toBe('10,240 KB');
    expect(formatFileSize(0)).toBe('0 KB');
    expect(formatFileSize(Number.NaN)).toBe('0 KB');
  });
});

describe('message time', () => {
  it('shows the clock time today and adds the date otherwise; nothing for a bad date', () => {
    const now = new Date('2026-11-22T15:00:00');
    expect(formatMessageTime('2026-11-22T09:05:00', now)).not.toMatch(/Nov/);
    expect(formatMessageTime('2026-11-20T09:05:00', now)).toMatch(/20/);
    expect(formatMessageTime('not a date', now)).toBe('');
  });
});
