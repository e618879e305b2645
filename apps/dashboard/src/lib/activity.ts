import {
  AI_SENDER,
  type Message,
  RECENT_ACTIVITY_ITEMS,
  RECENT_ACTIVITY_TEXT_CUT,
} from '@fanpilot/contracts';
import { TEXT } from '../texts.ts';
import { ANONYMOUS_FAN_NAME } from './conversations.ts';
import { truncate } from './format.ts';

const t = TEXT.dashboard.activity;

/** One Recent Activity line: 'name: message' for a fan, a labelled cut reply for the creator or AI. */
export function activityLine(message: Message): { label: string; text: string } {
  if (message.from === 'fan') {
    return { label: message.fanName?.trim() || ANONYMOUS_FAN_NAME, text: message.message };
  }
  return {
    label: message.from === AI_SENDER ? t.aiResponse : t.creatorResponse,
    text: truncate(message.message, RECENT_ACTIVITY_TEXT_CUT),
  };
}

/** The first five messages of the newest-first list (docs/product.md#dashboard-section). */
export const recentActivity = (newestFirst: readonly Message[]) =>
  newestFirst.slice(0, RECENT_ACTIVITY_ITEMS);

/** Fan messages in `messages` that were not there at the previous poll (ids in `previous`). */
export function newFanMessages(previous: ReadonlySet<string>, messages: readonly Message[]): Message[] {
  return messages.filter((m) => m.from === 'fan' && !previous.has(m.id));
}
