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

export const PUSH_QUEUE = 'fan-push';

/**
 * Web Push. Without `subscriptionId` the job fans out: one delivery job per subscription that
 * should hear of the message (its fan's devices) or announcement (every device of the creator's
 * fans). With it, the job delivers to that one device.
 */
export const pushJobSchema = z.object({
  kind: z.enum(['message', 'notice', 'alert']),
  id: z.string().min(1).max(64),
  subscriptionId: z.string().uuid().optional(),
});
export type PushJob = z.infer<typeof pushJobSchema>;
/** One fan-out per message or announcement. */
export const pushFanOutJobId = (job: { kind: string; id: string }) => `push-${job.kind}-${job.id}`;
/** One delivery per device and message: a repeated fan-out never notifies twice. */
export const pushDeliveryJobId = (job: { kind: string; id: string; subscriptionId: string }) =>
  `push-${job.kind}-${job.id}-${job.subscriptionId}`;

export const MAIL_QUEUE = 'mail';

/** Send one mail of the outbox (its row holds the text: a restore link is a secret). */
export const mailJobSchema = z.object({ mailId: z.string().uuid() });
export type MailJob = z.infer<typeof mailJobSchema>;
/** One send per mail, whoever queues it. */
export const mailJobId = (mailId: string) => `mail-${mailId}`;

export const MEMORY_QUEUE = 'fan-memory';

/**
 * Read a fan's new turns for their memory (docs/decisions/0079), after an AI answer or a creator's
 * reply to them: `conversationId` is the fan, `messageId` the message just committed.
 */
export const memoryJobSchema = z.object({
  conversationId: z.string().uuid(),
  messageId: z.string().regex(/^[1-9][0-9]{0,17}$/),
});
export type MemoryJob = z.infer<typeof memoryJobSchema>;
/** One extraction per fan and message, whoever queues it. */
export const memoryJobId = (job: MemoryJob) => `memory-${job.conversationId}-${job.messageId}`;

/**
 * The answer policy's inputs changed for a creator (credits bought, a fan plan, a chatbot made or
 * deleted, the creator gone Offline): their waiting questions the AI may now answer go to the AI.
 * Written in the change's own transaction (record 0077); `creatorId` null: every creator (a credits
 * purchase before its creator is known).
 */
export const POLICY_INPUTS_CHANGED_QUEUE = 'answer-policy-inputs-changed';
export const policyInputsChangedSchema = z.object({ creatorId: z.string().min(1).max(64).nullable() });
export type PolicyInputsChangedJob = z.infer<typeof policyInputsChangedSchema>;

/**
 * A job kind (record 0077): its name (the queue), its payload's schema (checked when the job is
 * written) and the job id that makes it run once however often it is asked for (`key`; null: each
 * request is a job of its own). The handler and retries are bound where a process runs it
 * (packages/background), since they need that process's database, model and mailer.
 */
export interface JobDefinition<T> {
  name: string;
  payload: z.ZodType<T>;
  key: (payload: T) => string | null;
}

export const defineJob = <T>(definition: JobDefinition<T>): JobDefinition<T> => definition;

/** The jobs written to the outbox in a change's transaction. */
export const JOBS = {
  answer: defineJob<AnswerJob>({
    name: ANSWER_QUEUE,
    payload: answerJobSchema,
    key: (job) => answerJobId(job.messageId),
  }),
  ingest: defineJob<IngestJob>({
    name: INGEST_QUEUE,
    payload: ingestJobSchema,
    key: (job) => job.run ?? job.knowledgeItemId,
  }),
  /** Written by the statement that stores an AI answer or a creator's message to a fan (record 0079). */
  memory: defineJob<MemoryJob>({
    name: MEMORY_QUEUE,
    payload: memoryJobSchema,
    key: memoryJobId,
  }),
  /**
   * A push fan-out (no `subscriptionId`): written by the triggers on messages to fans and pushed
   * notices, and by a creator's alert group, in the transaction that commits them.
   */
  push: defineJob<PushJob>({
    name: PUSH_QUEUE,
    payload: pushJobSchema.omit({ subscriptionId: true }),
    key: pushFanOutJobId,
  }),
  /** Sends one stored mail (`queueMail`, record 0042), written beside it. */
  mail: defineJob<MailJob>({
    name: MAIL_QUEUE,
    payload: mailJobSchema,
    key: (job) => mailJobId(job.mailId),
  }),
  policyInputsChanged: defineJob<PolicyInputsChangedJob>({
    name: POLICY_INPUTS_CHANGED_QUEUE,
    payload: policyInputsChangedSchema,
    key: () => null,
  }),
} as const;
