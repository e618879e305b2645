import {
  AI_SENDER,
  type Message,
  RECENT_ACTIVITY_ITEMS,
  RECENT_ACTIVITY_TEXT_CUT,
} from '@fanpilot/contracts';
import { withoutCitationMarkers } from '@fanpilot/ui/citations';
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
    // An AI answer's citation markers are links in the conversation; a one-line preview drops them.
    text: truncate(
      message.from === AI_SENDER ? withoutCitationMarkers(message.message) : message.message,
      RECENT_ACTIVITY_TEXT_CUT,
    ),
  };
}

/** The first five messages of the newest-first list (docs/product.md#dashboard-section). */
export const recentActivity = (newestFirst: readonly Message[]) =>
  newestFirst.slice(0, RECENT_ACTIVITY_ITEMS);

/** What a poll of the newest messages had: its fan messages' ids and the newest one's time. */
export interface SeenMessages {
  ids: ReadonlySet<string>;
  newestAt: number;
}

export function seenMessages(messages: readonly Message[]): SeenMessages {
  const fan = messages.filter((m) => m.from === 'fan');
  return {
    ids: new Set(fan.map((m) => m.id)),
    newestAt: Math.max(Number.NEGATIVE_INFINITY, ...fan.map((m) => Date.parse(m.created_at))),
  };
}

/**
 * Fan messages that arrived since the previous poll: not in it, and newer than its newest fan
 * message. An older message that only slid into the newest-messages window (a conversation was
 * deleted, so the window reaches further back) is not news (issue 29).
 */
export function newFanMessages(previous: SeenMessages, messages: readonly Message[]): Message[] {
  return messages.filter(
    (m) => m.from === 'fan' && !previous.ids.has(m.id) && Date.parse(m.created_at) > previous.newestAt,
  );
}
