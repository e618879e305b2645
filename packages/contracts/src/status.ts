import { z } from 'zod';
import {
  ANNOUNCEMENT_MAX_LENGTH,
  CREATOR_MESSAGE_MAX_LENGTH,
  TEMPLATE_TITLE_MAX_LENGTH,
} from './constants.ts';

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
});
export type Notice = z.infer<typeof noticeSchema>;

/** GET …/notice */
export const currentNoticeResponseSchema = z.object({ notice: noticeSchema.nullable() });
export type CurrentNoticeResponse = z.infer<typeof currentNoticeResponseSchema>;
/** GET …/notice-history, newest first. */
export const noticeHistoryResponseSchema = z.array(noticeSchema);

/** POST …/set-notice: trimmed, non-empty, at most ANNOUNCEMENT_MAX_LENGTH characters (enforced). */
export const setNoticeRequestSchema = z.object({
  message: z
    .string()
    .max(100_000, 'The announcement is far too long')
    .trim()
    .min(1, 'An announcement must not be empty')
    .superRefine((value, ctx) => {
      if (value.length > ANNOUNCEMENT_MAX_LENGTH) {
        ctx.addIssue({
          code: 'custom',
          message: `An announcement holds at most ${ANNOUNCEMENT_MAX_LENGTH} characters; this one has ${value.length}`,
        });
      }
    }),
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
  title: z.string().trim().min(1, 'A template needs a title').max(TEMPLATE_TITLE_MAX_LENGTH),
  content: z.string().trim().min(1, 'A template must not be empty').max(CREATOR_MESSAGE_MAX_LENGTH),
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
});
export type Usage = z.infer<typeof usageSchema>;

export const successSchema = z.object({ success: z.literal(true) });
