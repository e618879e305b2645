import { z } from 'zod';
import { knowledgeItemSchema } from './chatbot.ts';

/** Fan questions the AI could not answer from the creator's knowledge, grouped by what they ask. */
export const knowledgeGapSchema = z.object({
  /** The newest question's wording. */
  question: z.string(),
  /** How many times it was asked, and by how many fans. */
  count: z.number().int(),
  fans: z.number().int(),
  lastAskedAt: z.string(),
  /** The questions in the group (message ids), newest first: what answer and dismiss act on. */
  questionIds: z.array(z.string()),
});
export type KnowledgeGap = z.infer<typeof knowledgeGapSchema>;

export const knowledgeGapsResponseSchema = z.object({ gaps: z.array(knowledgeGapSchema) });

const questionIdsSchema = z
  .array(z.string().regex(/^\d{1,19}$/, 'A question id is a message id.'))
  .min(1, 'Choose at least one question.')
  .max(1000);

export const answerGapRequestSchema = z.object({
  questionIds: questionIdsSchema,
  /** The question as the note should state it (defaults to the group's wording in the dashboard). */
  question: z.string().trim().min(1, 'The question is empty.').max(500),
  answer: z.string().trim().min(1, 'Write an answer first.').max(20_000),
  /** Also send the answer to each fan who asked, as a message from the creator. */
  sendToFans: z.boolean().optional(),
});
export type AnswerGapRequest = z.infer<typeof answerGapRequestSchema>;

export const answerGapResponseSchema = z.object({
  /** The knowledge note the answer was saved as; the AI uses it once it is ready. */
  item: knowledgeItemSchema,
  closed: z.number().int(),
  /** Fans the answer was sent to. */
  sentTo: z.number().int(),
});

export const dismissGapsRequestSchema = z.object({ questionIds: questionIdsSchema });
export const dismissGapsResponseSchema = z.object({ closed: z.number().int() });
