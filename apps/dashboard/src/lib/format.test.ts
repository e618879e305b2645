import { describe, expect, it } from 'vitest';
import { relativeTime, truncate } from './format.ts';

const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('relativeTime', () => {
  it("reads 'Just now' under a minute, and for a time slightly in the future", () => {
    expect(relativeTime(ago(0), NOW)).toBe('Just now');
    expect(relativeTime(ago(59_999), NOW)).toBe('Just now');
    expect(relativeTime(ago(-5_000), NOW)).toBe('Just now');
  });

  it('counts whole minutes, then hours, then days', () => {
    expect(relativeTime(ago(60_000), NOW)).toBe('1m ago');
    expect(relativeTime(ago(59 * 60_000 + 59_000), NOW)).toBe('59m ago');
    expect(relativeTime(ago(60 * 60_000), NOW)).toBe('1h ago');
    expect(relativeTime(ago(23 * 3_600_000 + 3_599_000), NOW)).toBe('23h ago');
    expect(relativeTime(ago(24 * 3_600_000), NOW)).toBe('1d ago');
    expect(relativeTime(ago(45 * 24 * 3_600_000), NOW)).toBe('45d ago');
  });

  it('is empty for an unreadable time', () => {
    expect(relativeTime('not a date', NOW)).toBe('');
  });
});

describe('truncate', () => {
  it('leaves text at or under the limit alone', () => {
    expect(truncate('a'.repeat(30), 30)).toBe('a'.repeat(30));
    expect(truncate('', 30)).toBe('');
  });

  it('cuts longer text to the limit and marks the cut', () => {
    expect(truncate('Thanks for the question about sourdough starters!', 30)).toBe(
      'Thanks for the question about ...',
    );
    expect(truncate('x'.repeat(101), 100)).toBe(`${'x'.repeat(100)}...`);
  });

  it('never splits a character made of two code units', () => {
    expect(truncate('😀😀😀', 2)).toBe('😀😀...');
  });
});
