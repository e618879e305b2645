import type { Message } from '@fanpilot/contracts';
import { isToday, localDay } from './format.ts';

/** SPEC section 3: a conversation, derived on the client from the creator's messages. */
export interface Conversation {
  /** Stable identity for lists: the fan id, or the anonymous fan's name and day. */
  key: string;
  fanName: string;
  /** null for an anonymous fan (messages without a fan id). */
  fanId: string | null;
  /** Oldest first. */
  messages: Message[];
  pendingCount: number;
  lastMessageTime: string;
  hasCreatorResponse: boolean;
}

export type ConversationFilter = 'all' | 'unread' | 'answered';

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

export const isReply = (message: Message) => message.from === 'creator' || message.from === 'Creatorai';
export const isPending = (message: Message) => message.from === 'fan' && message.status === 'pending';

interface Draft {
  key: string;
  fanId: string | null;
  messages: Message[];
  lastTime: number;
}

/**
 * Groups messages into conversations (SPEC section 3):
 * - by fanId;
 * - a fan message without a fan id (an anonymous fan) by the fan's name plus the local day;
 * - a creator or AI message without a fan id joins the conversation of the fan message it replies
 *   to when that is known, else the conversation most recently active at the time it was sent.
 *   One sent before any conversation existed belongs to no one and is left out.
 * The result is sorted by latest activity, newest first.
 */
export function groupConversations(messages: readonly Message[]): Conversation[] {
  const drafts = new Map<string, Draft>();
  const conversationOfMessage = new Map<string, Draft>();
  let mostRecent: Draft | null = null;

  for (const message of [...messages].sort(byTime)) {
    let draft: Draft | undefined;
    if (message.fanId) {
      const key = `fan:${message.fanId}`;
      draft = drafts.get(key) ?? { key, fanId: message.fanId, messages: [], lastTime: 0 };
      drafts.set(key, draft);
    } else if (message.from === 'fan') {
      const key = `anonymous:${message.fanName?.trim() || ANONYMOUS_FAN_NAME}:${localDay(message.timestamp)}`;
      draft = drafts.get(key) ?? { key, fanId: null, messages: [], lastTime: 0 };
      drafts.set(key, draft);
    } else {
      draft =
        (message.replyTo ? conversationOfMessage.get(message.replyTo) : undefined) ?? mostRecent ?? undefined;
    }
    if (!draft) continue;
    draft.messages.push(message);
    draft.lastTime = Math.max(draft.lastTime, timeOf(message));
    conversationOfMessage.set(message.id, draft);
    if (!mostRecent || draft.lastTime >= mostRecent.lastTime) mostRecent = draft;
  }

  return [...drafts.values()].map(toConversation).sort(byLatestActivity);
}

function toConversation(draft: Draft): Conversation {
  const fanMessages = draft.messages.filter((m) => m.from === 'fan');
  const named = [...draft.messages].reverse().find((m) => m.fanName?.trim());
  const last = draft.messages.at(-1);
  return {
    key: draft.key,
    fanId: draft.fanId,
    fanName: named?.fanName?.trim() || ANONYMOUS_FAN_NAME,
    messages: draft.messages,
    pendingCount: fanMessages.filter(isPending).length,
    lastMessageTime: last?.timestamp ?? '',
    hasCreatorResponse: draft.messages.some(isReply),
  };
}

function byLatestActivity(a: Conversation, b: Conversation): number {
  const ta = Date.parse(a.lastMessageTime) || 0;
  const tb = Date.parse(b.lastMessageTime) || 0;
  return tb - ta || a.key.localeCompare(b.key);
}

/** SPEC section 4: unread while any fan message is pending; answered (complete) otherwise. */
export function filterConversations(
  conversations: Conversation[],
  filter: ConversationFilter,
): Conversation[] {
  if (filter === 'unread') return conversations.filter((c) => c.pendingCount > 0);
  if (filter === 'answered') return conversations.filter((c) => c.pendingCount === 0);
  return conversations;
}

/** The newest fan message and the newest creator or AI reply, for a conversation row. */
export function latestMessages(conversation: Conversation): { fan?: Message; reply?: Message } {
  const reversed = [...conversation.messages].reverse();
  const fan = reversed.find((m) => m.from === 'fan');
  const reply = reversed.find(isReply);
  return { ...(fan ? { fan } : {}), ...(reply ? { reply } : {}) };
}

/** The numbers of the badges and the side panel of Chat Management. */
export function conversationSummary(conversations: Conversation[], now: number = Date.now()) {
  const waiting = conversations.filter((c) => c.pendingCount > 0);
  return {
    fans: conversations.length,
    waitingMessages: waiting.reduce((sum, c) => sum + c.pendingCount, 0),
    waitingFans: waiting.length,
    unansweredChats: waiting.length,
    activeFansToday: conversations.filter((c) =>
      c.messages.some((m) => m.from === 'fan' && isToday(m.timestamp, now)),
    ).length,
  };
}

/** The path segment that deletes a conversation: the fan's id, or an anonymous fan's name. */
export function conversationDeleteKey(conversation: Conversation): string {
  return conversation.fanId ?? conversation.fanName;
}
