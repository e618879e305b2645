import { z } from 'zod';
import { fanIdSchema, messageSchema } from './messages.ts';

/**
 * The dashboard's scalable inbox calls (issue 12). The specified calls (…/messages, …/fans,
 * …/fans/{fanId}/messages) keep their shapes; the dashboard reads these instead, which stay exact
 * and fast for a creator with 10,000 fans and 200,000 messages.
 */

/** Conversations per page of GET …/conversations, unless `limit` says otherwise. */
export const CONVERSATIONS_PAGE_SIZE = 25;
/** Messages per page of GET …/fans/{fanId}/conversation, unless `limit` says otherwise. */
export const CONVERSATION_PAGE_SIZE = 50;
/** The longest fan-name search the server accepts. */
export const CONVERSATION_SEARCH_MAX = 100;

const zonesSeen = new Map<string, boolean>();
/** Whether this runtime knows the time zone (answers remembered: the check is not cheap). */
export function isTimeZone(zone: string): boolean {
  let known = zonesSeen.get(zone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      known = true;
    } catch {
      known = false;
    }
    if (zonesSeen.size < 1_000) zonesSeen.set(zone, known);
  }
  return known;
}

/** An IANA time zone name, e.g. Europe/Berlin; "today" is counted in it. */
export const timeZoneSchema = z.string().min(1).max(64).refine(isTimeZone, { message: 'Unknown time zone' });

/** GET /api/creators/username/{u}/stats?tz=Area/City */
export const inboxStatsQuerySchema = z.object({ tz: timeZoneSchema.optional() });

/** Every number the dashboard shows, counted by the server over all of the creator's data. */
export const inboxStatsSchema = z.object({
  /** All of the creator's fans. */
  fans: z.number().int(),
  /** Fans who sent a message today (in `timeZone`). */
  activeFansToday: z.number().int(),
  /** Fan messages waiting for an answer. */
  pendingQuestions: z.number().int(),
  /** Fans with at least one message waiting. */
  waitingFans: z.number().int(),
  /** Replies (the creator's and the AI's) sent today. */
  todayResponses: z.number().int(),
  /** The AI's replies sent today. */
  todayAiResponses: z.number().int(),
  /** The credits balance. */
  credits: z.number().int(),
  /** The zone "today" was counted in, and when that day began. */
  timeZone: z.string(),
  todayStartedAt: z.string(),
});
export type InboxStats = z.infer<typeof inboxStatsSchema>;

export const conversationFilterSchema = z.enum(['all', 'waiting', 'answered']);
export type ConversationListFilter = z.infer<typeof conversationFilterSchema>;

/** An opaque page cursor the server handed out. */
export const pageCursorSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/, 'Not a page cursor');

/** GET /api/creators/username/{u}/conversations */
export const conversationsQuerySchema = z.object({
  filter: conversationFilterSchema.optional(),
  /** Part of the fan's name, any case. */
  q: z.string().max(CONVERSATION_SEARCH_MAX).optional(),
  cursor: pageCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

/** One row of Chat Management: a fan's conversation, without its messages. */
export const conversationSummarySchema = z.object({
  fanId: z.string(),
  fanName: z.string().nullable(),
  messageCount: z.number().int(),
  pendingCount: z.number().int(),
  /** The latest message either way, or the fan's first visit when there is none. */
  lastActivityAt: z.string(),
  firstSeenAt: z.string(),
  /** The fan's newest message. */
  latestFanMessage: messageSchema.nullable(),
  /** The newest reply (the creator's or the AI's). */
  latestReply: messageSchema.nullable(),
  /** The newest fan message still waiting for an answer (what Respond answers). */
  newestPending: messageSchema.nullable(),
  /** The fan holds a subscription to the creator now (record 0043). */
  subscriber: z.boolean(),
});
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

export const conversationsPageSchema = z.object({
  conversations: z.array(conversationSummarySchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type ConversationsPage = z.infer<typeof conversationsPageSchema>;

/** GET /api/creators/username/{u}/fans/{fanId}/conversation */
export const conversationPageParamsSchema = z.object({
  username: z.string().min(1).max(100),
  fanId: fanIdSchema,
});
export const conversationPageQuerySchema = z.object({
  /** Messages older than this cursor; without it, the newest page. */
  before: pageCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

export const conversationPageSchema = z.object({
  fanId: z.string(),
  fanName: z.string().nullable(),
  /** Oldest first within the page; the newest page comes first. */
  messages: z.array(messageSchema),
  /** Pass as `before` for the page of older messages; null when this page reaches the first one. */
  olderCursor: z.string().nullable(),
});
export type ConversationPage = z.infer<typeof conversationPageSchema>;

/** Event streams (Server-Sent Events) one creator's dashboards, or one fan's chats, may hold at once. */
export const LIVE_STREAMS_PER_DASHBOARD = 20;
export const LIVE_STREAMS_PER_FAN = 5;
