import { z } from 'zod';

/** Queue and job names; payloads carry ids only, never secrets. */
export const INGEST_QUEUE = 'knowledge-ingest';
export const ANSWER_QUEUE = 'fan-answer';

export const ingestJobSchema = z.object({ knowledgeItemId: z.string() });
export type IngestJob = z.infer<typeof ingestJobSchema>;
export const answerJobSchema = z.object({ messageId: z.string() });
export type AnswerJob = z.infer<typeof answerJobSchema>;
