import { z } from 'zod';

/** Queue and job names; payloads carry ids only, never secrets. */
export const INGEST_QUEUE = 'knowledge-ingest';
export const ANSWER_QUEUE = 'fan-answer';

/**
 * Ingest one knowledge item. `run` names the request (first add, retry, re-sync, sweep); the item
 * remembers the latest, so an older run that finishes late never overwrites a newer one.
 */
export const ingestJobSchema = z.object({ knowledgeItemId: z.string(), run: z.string().optional() });
export type IngestJob = z.infer<typeof ingestJobSchema>;

/** One job per fan question: the AI answers it at most once, whoever enqueues it. */
export const answerJobSchema = z.object({ messageId: z.string().regex(/^[1-9][0-9]{0,17}$/) });
export type AnswerJob = z.infer<typeof answerJobSchema>;
/** The job id that deduplicates answer jobs for one question. */
export const answerJobId = (messageId: string) => `answer-${messageId}`;
