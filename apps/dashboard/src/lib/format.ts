import { TEXT } from '../texts.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * docs/product.md#dashboard-section: under a minute is 'Just now', then whole minutes, hours, days. A time in the
 * future (a clock a little ahead of ours) also reads 'Just now'; an unreadable time reads as empty.
 */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const elapsed = now - then;
  if (elapsed < MINUTE_MS) return TEXT.time.justNow;
  if (elapsed < HOUR_MS) return TEXT.time.minutesAgo(Math.floor(elapsed / MINUTE_MS));
  if (elapsed < DAY_MS) return TEXT.time.hoursAgo(Math.floor(elapsed / HOUR_MS));
  return TEXT.time.daysAgo(Math.floor(elapsed / DAY_MS));
}

/** An absolute time for a tooltip or a screen reader: "Nov 22, 2026, 10:00 AM" in the reader's zone. */
export function absoluteTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * Cuts text to `max` characters and marks the cut with an ellipsis. Counts characters as a person
 * sees them (code points), so an emoji is never split in half.
 */
export function truncate(text: string, max: number): string {
  const characters = Array.from(text);
  if (characters.length <= max) return text;
  return `${characters.slice(0, max).join('')}...`;
}
