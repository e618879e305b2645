import type { Message } from '@fanpilot/contracts';
import { AI_SENDER } from '@fanpilot/contracts';

/** What the dashboard calls a fan who gave no name. */
export const ANONYMOUS_FAN_NAME = 'Anonymous';

const timeOf = (message: Message) => {
  const t = Date.parse(message.timestamp);
  return Number.isNaN(t) ? 0 : t;
};

/** Oldest first; messages of the same instant keep their id order (ids grow with time). */
export function byTime(a: Message, b: Message): number {
  return timeOf(a) - timeOf(b) || compareIds(a.id, b.id);
}

function compareIds(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) {
    return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

export const isReply = (message: Message) => message.from === 'creator' || message.from === AI_SENDER;
export const isPending = (message: Message) => message.from === 'fan' && message.status === 'pending';
