import { z } from 'zod';
import { fanIdSchema } from './messages.ts';

// Per-fan memory (docs/decisions/0079): what a creator's assistant remembers about one fan.

/** A durable fact the fan shared, with the message it came from. */
export const fanMemoryItemSchema = z.object({
  id: z.string(),
  text: z.string(),
  /** The fan message it was taken from; null once that message is gone. */
  sourceMessageId: z.string().nullable(),
  correctedByCreator: z.boolean(),
  createdAt: z.string(),
});
export type FanMemoryItem = z.infer<typeof fanMemoryItemSchema>;

export const fanMemorySchema = z.object({
  /** False on embedded defaults (no model key): memory is off for everyone, nothing is kept. */
  available: z.boolean(),
  /** False: the fan turned memory off (nothing kept). */
  enabled: z.boolean(),
  /** Oldest first. */
  items: z.array(fanMemoryItemSchema),
});
export type FanMemory = z.infer<typeof fanMemorySchema>;

/** The creator's credits one memory extraction (one fan turn, or a batch of them) costs. */
export const CREDITS_PER_MEMORY_EXTRACTION = 0;

export const fanMemoryQuerySchema = z.object({ creator: z.string().trim().min(1).max(100) });
export const fanMemoryItemParamsSchema = z.object({ fanId: fanIdSchema, itemId: z.string().min(1).max(64) });
export const setFanMemoryRequestSchema = z.object({ enabled: z.boolean() });

export const creatorFanMemoryParamsSchema = z.object({
  username: z.string().min(1).max(100),
  /** The conversation's fan id (as in the chat log). */
  fanId: fanIdSchema,
});
export const creatorFanMemoryItemParamsSchema = creatorFanMemoryParamsSchema.extend({
  itemId: z.string().min(1).max(64),
});
export const correctFanMemoryRequestSchema = z.object({ text: z.string().trim().min(1).max(200) });

/** A fan's chat message asked memory to forget: what was done (the fan is told so). */
export const memoryForgotSchema = z.enum(['cleared', 'dropped']);
export type MemoryForgot = z.infer<typeof memoryForgotSchema>;
