import { z } from 'zod';
import { CREATOR_MESSAGE_MAX_LENGTH, TEMPLATE_TITLE_MAX_LENGTH } from './constants.ts';
import { requiredString } from './required.ts';

const ANNOUNCEMENT_REQUIRED_MESSAGE = 'An announcement must not be empty';

export const onlineStatusSchema = z.object({ isOnline: z.boolean(), statusText: z.string() });
export type OnlineStatus = z.infer<typeof onlineStatusSchema>;

/** POST /api/toggle-status */
export const toggleStatusRequestSchema = z.object({ creator: z.string().trim().min(1).max(100) });
export const toggleStatusResponseSchema = onlineStatusSchema.extend({ success: z.literal(true) });
export type ToggleStatusResponse = z.infer<typeof toggleStatusResponseSchema>;

export const noticeSchema = z.object({
  id: z.string(),
  message: z.string(),
  timestamp: z.string(),
  /** The creator's fans when it was sent: 'Delivered to N fans'. */
  sentCount: z.number().int(),
  /** Whether it was pushed to fans who allow notifications, and to how many devices so far. */
  pushed: z.boolean().optional(),
  pushedCount: z.number().int().optional(),
});
export type Notice = z.infer<typeof noticeSchema>;

/**
 * GET …/notice: `{ notice }` (null when none was sent), and, when there is one, its fields again at
 * the top level (`message`, `timestamp`, `sentCount`, `id`) for clients that read them there.
 */
export const currentNoticeResponseSchema = z.object({
  notice: noticeSchema.nullable(),
  ...noticeSchema.partial().shape,
});
export type CurrentNoticeResponse = z.infer<typeof currentNoticeResponseSchema>;
/** GET …/notice-history, newest first. */
export const noticeHistoryResponseSchema = z.array(noticeSchema);

/** Far beyond any announcement; only keeps an abusive body from being stored. */
export const ANNOUNCEMENT_HARD_CAP = 100_000;

/**
 * POST …/set-notice: trimmed and non-empty. ANNOUNCEMENT_MAX_LENGTH (500) is the composer's counter
 * only (docs/product.md#announcements: no hard enforcement); a longer announcement is stored as sent.
 */
export const setNoticeRequestSchema = z.object({
  message: requiredString(ANNOUNCEMENT_REQUIRED_MESSAGE)
    .max(ANNOUNCEMENT_HARD_CAP, 'The announcement is far too long')
    .trim()
    .min(1, ANNOUNCEMENT_REQUIRED_MESSAGE),
  /** Also send it as a notification to fans who allowed them (not in the product description (docs/product.md#notifications-to-fans); default false). */
  push: z.boolean().optional(),
});
export type SetNoticeRequest = z.input<typeof setNoticeRequestSchema>;
export const setNoticeResponseSchema = z.object({ success: z.literal(true), notice: noticeSchema });
export type SetNoticeResponse = z.infer<typeof setNoticeResponseSchema>;

export const templateSchema = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  createdAt: z.string(),
});
export type Template = z.infer<typeof templateSchema>;
/** GET …/templates, oldest first. */
export const templatesResponseSchema = z.array(templateSchema);
export const createTemplateRequestSchema = z.object({
  title: requiredString('A template needs a title')
    .trim()
    .min(1, 'A template needs a title')
    .max(TEMPLATE_TITLE_MAX_LENGTH),
  content: requiredString('A template must not be empty')
    .trim()
    .min(1, 'A template must not be empty')
    .max(CREATOR_MESSAGE_MAX_LENGTH),
});
export type CreateTemplateRequest = z.input<typeof createTemplateRequestSchema>;
export const templateParamsSchema = z.object({
  username: z.string().min(1).max(100),
  id: z.string().min(1).max(100),
});

export const usageSchema = z.object({
  /** Credits spent on AI answers, all time. */
  creditsUsed: z.number().int(),
  /** Balance: grants + purchases + adjustments − answers. */
  creditsRemaining: z.number().int(),
  /** Credits granted free (1,000 at onboarding). */
  freeCredits: z.number().int(),
  creditsPurchased: z.number().int(),
  /** AI answers since midnight UTC. */
  aiAnswersToday: z.number().int(),
  /** The chatbot's daily AI answer budget (Chatbot Settings). */
  dailyAiBudget: z.number().int(),
  /** Today's budget is used up: until midnight UTC fans' questions wait for the creator. */
  aiBudgetReached: z.boolean(),
});
export type Usage = z.infer<typeof usageSchema>;

export const successSchema = z.object({ success: z.literal(true) });
