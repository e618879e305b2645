import { z } from 'zod';
import { DAILY_AI_BUDGET_MAX, DAILY_AI_BUDGET_MIN, DEFAULT_TEMPERATURE, MODEL_CHOICES } from './constants.ts';
import { requiredString } from './required.ts';

/** docs/product.md#contractual-texts: a chatbot name that is missing or blank. */
export const CHATBOT_NAME_REQUIRED_MESSAGE = 'Please enter a chatbot name';
/** A chatbot name: trimmed, 1 to 100 characters; missing, null or blank reads CHATBOT_NAME_REQUIRED_MESSAGE. */
export const chatbotNameSchema = requiredString(CHATBOT_NAME_REQUIRED_MESSAGE)
  .trim()
  .min(1, CHATBOT_NAME_REQUIRED_MESSAGE)
  .max(100);

export const knowledgeTypeSchema = z.enum(['youtube', 'url', 'file']);
export type KnowledgeType = z.infer<typeof knowledgeTypeSchema>;
export const knowledgeStatusSchema = z.enum(['pending', 'processing', 'completed', 'active', 'failed']);
export type KnowledgeStatus = z.infer<typeof knowledgeStatusSchema>;

export const knowledgeItemSchema = z.object({
  id: z.string(),
  type: knowledgeTypeSchema,
  url: z.string().nullable(),
  youtubeUrl: z.string().nullable(),
  fileName: z.string().nullable(),
  title: z.string().nullable(),
  status: knowledgeStatusSchema,
  /** Why it failed, in words a person understands; null unless failed. */
  error: z.string().nullable(),
  /** Where it came from: the URL, the video link or the file name. */
  source: z.string(),
  createdAt: z.string(),
  processedAt: z.string().nullable(),
  chunkCount: z.number().int(),
  /** A file's size in bytes (null for pages and videos). */
  fileSize: z.number().int().nullable().optional(),
  /** Fans who were cited this file may download it whole (files only; false unless the creator allows it). */
  fansMayDownload: z.boolean().optional(),
  /**
   * A failed source that failed for good (refused by the network rules, not found, disallowed by
   * robots.txt, not a readable document): trying again cannot help, so no Retry is offered.
   */
  failedForGood: z.boolean().optional(),
});
export type KnowledgeItem = z.infer<typeof knowledgeItemSchema>;

export const modelSchema = z.enum(MODEL_CHOICES);

export const initialMessagesSchema = z.array(z.string().max(2000)).max(20);

export const chatbotSchema = z.object({
  id: z.string(),
  chatbotId: z.string(),
  name: z.string(),
  instructions: z.string(),
  model: modelSchema,
  temp: z.number().min(0).max(1),
  initialMessages: initialMessagesSchema,
  /** AI answers per UTC day; past it questions wait for the creator. */
  dailyAiBudget: z.number().int(),
  knowledge: z.array(knowledgeItemSchema),
});
export type Chatbot = z.infer<typeof chatbotSchema>;

/** Temperature is sent as a string (docs/product.md#chatbot-settings-modal): "0" to "1" in steps of 0.1. */
export const temperatureStringSchema = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (String(value).trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    ctx.addIssue({ code: 'custom', message: 'Temperature must be a number from 0 to 1' });
    return z.NEVER;
  }
  if (Math.abs(Math.round(n * 10) - n * 10) > 1e-9) {
    ctx.addIssue({ code: 'custom', message: 'Temperature moves in steps of 0.1' });
    return z.NEVER;
  }
  return Math.round(n * 10) / 10;
});

export const DAILY_AI_BUDGET_MESSAGE = `The daily AI answer budget must be a whole number from ${DAILY_AI_BUDGET_MIN} to ${DAILY_AI_BUDGET_MAX.toLocaleString('en-US')}`;
/** The daily AI answer budget: a whole number of answers, 1 to 100,000 (a JSON number). */
export const dailyAiBudgetSchema = z
  .number({ error: DAILY_AI_BUDGET_MESSAGE })
  .int(DAILY_AI_BUDGET_MESSAGE)
  .min(DAILY_AI_BUDGET_MIN, DAILY_AI_BUDGET_MESSAGE)
  .max(DAILY_AI_BUDGET_MAX, DAILY_AI_BUDGET_MESSAGE);

export const createChatbotRequestSchema = z.object({
  name: chatbotNameSchema,
  urls: z.array(z.string().max(2048)).max(50).optional().default([]),
});
export const chatbotSettingsRequestSchema = z.object({
  name: chatbotNameSchema,
  instructions: z.string().max(8000).default(''),
  model: modelSchema,
  temp: temperatureStringSchema.default(DEFAULT_TEMPERATURE),
  initialMessages: initialMessagesSchema.optional(),
  /** Optional beyond the specified fields; left out, the budget stays as it is. */
  dailyAiBudget: dailyAiBudgetSchema.optional(),
});

export const knowledgeProgressSchema = z.object({
  total: z.number().int(),
  active: z.number().int(),
  pending: z.number().int(),
  /** Sources that failed for good (counted apart: neither ready nor pending). */
  failed: z.number().int().optional(),
  progressPercentage: z.number(),
  isComplete: z.boolean(),
  items: z.array(knowledgeItemSchema),
});
export type KnowledgeProgress = z.infer<typeof knowledgeProgressSchema>;

export const addKnowledgeRequestSchema = z.object({
  chatbotId: z.string().min(1),
  url: z.string().trim().min(1).max(2048),
});
export const addYoutubeRequestSchema = z.object({ youtubeUrl: z.string().trim().min(1).max(2048) });

/** GET /api/creators/username/{username}/chatbot: the chatbot, or null before one exists. */
export const creatorChatbotResponseSchema = chatbotSchema.nullable();

export const chatbotIdParamsSchema = z.object({ id: z.string().min(1).max(100) });

/** DELETE /api/chatbots/:id: the chatbot and its knowledge are gone. */
export const deleteChatbotResponseSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  deletedKnowledge: z.number().int().nonnegative(),
});
export type DeleteChatbotResponse = z.infer<typeof deleteChatbotResponseSchema>;
export const knowledgeIdParamsSchema = z.object({ id: z.string().min(1).max(100) });

/** Answer of every call that adds or re-runs a knowledge item (the YouTube one carries the video title). */
export const knowledgeItemResponseSchema = knowledgeItemSchema;
/** What a creator may change on a knowledge item. */
export const updateKnowledgeRequestSchema = z.object({ fansMayDownload: z.boolean() });
export const deleteKnowledgeResponseSchema = z.object({ success: z.literal(true), id: z.string() });
