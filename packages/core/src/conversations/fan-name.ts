import { createHash } from 'node:crypto';

/**
 * A readable name for a fan who gave none: 'Fan' and four digits taken from a hash of the fan id.
 * The digits come from the whole id (for the fan app's ids, mostly its random part), so the name
 * says nothing about the id: neither when it was made nor any of its characters.
 */
export function defaultFanName(fanKey: string): string {
  const digits = createHash('sha256').update(fanKey).digest().readUInt32BE(0) % 10_000;
  return `Fan ${String(digits).padStart(4, '0')}`;
}

/**
 * The one name the creator sees for a fan, wherever it shows (issue 29: the list, the conversation's
 * title, its bubbles, Recent Activity): the name the fan chose, else the generated one, which is
 * also the name stored on the fan's messages when it chose none (ask.ts).
 */
export function fanNameOf(fan: { name: string | null; fan_key: string }): string {
  return fan.name?.trim() || defaultFanName(fan.fan_key);
}
