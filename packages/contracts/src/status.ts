import { z } from 'zod';
import { ANNOUNCEMENT_MAX_LENGTH } from './constants.ts';

export const onlineStatusSchema = z.object({ isOnline: z.boolean(), statusText: z.string() });
export type OnlineStatus = z.infer<typeof onlineStatusSchema>;

export const noticeSchema = z.object({
  id: z.string(),
  message: z.string(),
  timestamp: z.string(),
  sentCount: z.number().int(),
});
export type Notice = z.infer<typeof noticeSchema>;

export const setNoticeRequestSchema = z.object({
  message: z
    .string()
    .trim()
    .min(1, 'An announcement must not be empty')
    .max(ANNOUNCEMENT_MAX_LENGTH, `An announcement holds at most ${ANNOUNCEMENT_MAX_LENGTH} characters`),
});

export const templateSchema = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  createdAt: z.string(),
});
export type Template = z.infer<typeof templateSchema>;

export const usageSchema = z.object({
  creditsUsed: z.number().int(),
  creditsRemaining: z.number().int(),
  freeCredits: z.number().int(),
  creditsPurchased: z.number().int(),
  aiAnswersToday: z.number().int(),
});
export type Usage = z.infer<typeof usageSchema>;
