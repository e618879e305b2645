import { z } from 'zod';
import {
  CORRECTION_ANSWER_MAX_LENGTH,
  CORRECTION_QUESTION_MAX_LENGTH,
  PLAYGROUND_QUESTION_MAX_LENGTH,
  RATING_COMMENT_MAX_LENGTH,
} from './constants.ts';
import { fanIdSchema, messageSourceSchema } from './messages.ts';

// The creator tries, corrects and reads ratings of the AI's answers; fans rate them
// (docs/product.md#try-your-chatbot, #corrections, #fans-rate-answers).

const messageIdSchema = z.string().regex(/^[1-9][0-9]{0,17}$/, 'messageId must be a message id');

/** Who really answers fans: the chatbot's model when its provider's key is set, else the embedded answerer. */
export const answererSchema = z.object({
  /** The chatbot's model setting. */
  model: z.string(),
  /** The provider's own name for it. */
  providerModel: z.string(),
  provider: z.string(),
  /** True: the model answers. False: no key is set, and the embedded answerer quotes the material. */
  configured: z.boolean(),
  /** The environment variable that turns the model on (e.g. OPENAI_API_KEY). */
  keyVariable: z.string(),
});
export type Answerer = z.infer<typeof answererSchema>;

export const playgroundRequestSchema = z.object({
  question: z
    .string()
    .trim()
    .min(1, 'Write a question to try.')
    .max(
      PLAYGROUND_QUESTION_MAX_LENGTH,
      `A question has at most ${PLAYGROUND_QUESTION_MAX_LENGTH} characters.`,
    ),
});

/** A passage retrieved for the question, best first: what the model was shown. */
export const retrievedPassageSchema = z.object({
  title: z.string(),
  source: z.string(),
  content: z.string(),
  score: z.number(),
});

export const playgroundResponseSchema = z.object({
  question: z.string(),
  /** The answer a fan would get now; [n] cites sources[n - 1]. */
  answer: z.string(),
  sources: z.array(messageSourceSchema),
  passages: z.array(retrievedPassageSchema),
  /** The answer says the material does not cover the question: a fan's question would wait for the creator. */
  handedOver: z.boolean(),
  /** The model that wrote it; null: the embedded answerer (no key configured). */
  model: z.string().nullable(),
  /** The creator's correction that answered, if one matched. */
  correction: z.object({ id: z.string(), question: z.string() }).nullable(),
});
export type PlaygroundResponse = z.infer<typeof playgroundResponseSchema>;

export const correctionSchema = z.object({
  id: z.string(),
  question: z.string(),
  answer: z.string(),
  /** The AI answer it corrected (null from the playground or the gaps card). */
  correctedMessageId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Correction = z.infer<typeof correctionSchema>;

export const correctAnswerRequestSchema = z.object({
  question: z
    .string()
    .trim()
    .min(1, 'Write the question.')
    .max(
      CORRECTION_QUESTION_MAX_LENGTH,
      `A question has at most ${CORRECTION_QUESTION_MAX_LENGTH} characters.`,
    ),
  answer: z
    .string()
    .trim()
    .min(1, 'Write the right answer.')
    .max(CORRECTION_ANSWER_MAX_LENGTH, `An answer has at most ${CORRECTION_ANSWER_MAX_LENGTH} characters.`),
  /** The AI answer being corrected (or the fan question it answered). */
  messageId: messageIdSchema.optional(),
  /**
   * Also send the correction, as a message from the creator, to every fan who got a wrong answer to
   * this question or a paraphrase (the fan of `messageId` among them).
   */
  sendToFan: z.boolean().optional(),
});
export type CorrectAnswerRequest = z.infer<typeof correctAnswerRequestSchema>;

export const correctAnswerResponseSchema = z.object({
  correction: correctionSchema,
  /** Fans the correction was sent to. */
  sentTo: z.number().int(),
});

export const correctionsResponseSchema = z.object({ corrections: z.array(correctionSchema) });

export const correctionParamsSchema = z.object({
  username: z.string().min(1).max(100),
  id: z.string().uuid('This correction does not exist.'),
});

/** A fan who got a wrong answer that a correction corrects (the newest such answer of theirs). */
export const correctionFanSchema = z.object({
  fanId: z.string(),
  fanName: z.string().nullable(),
  /** The fan's question the AI answered. */
  question: z.string(),
  /** The AI answer. */
  answerId: z.string(),
  answeredAt: z.string(),
  /** Already sent this correction (as it reads now). */
  sent: z.boolean(),
});
export type CorrectionFan = z.infer<typeof correctionFanSchema>;

export const correctionFansResponseSchema = z.object({ fans: z.array(correctionFanSchema) });

export const sendCorrectionResponseSchema = z.object({
  /** Fans the correction was sent to now (those sent it before are not sent it again). */
  sentTo: z.number().int(),
});

export const ratingValueSchema = z.enum(['up', 'down']);
export type RatingValue = z.infer<typeof ratingValueSchema>;

export const rateAnswerParamsSchema = z.object({ fanId: fanIdSchema, messageId: messageIdSchema });

export const rateAnswerRequestSchema = z.object({
  /** null takes the rating back. */
  rating: ratingValueSchema.nullable(),
  comment: z
    .string()
    .trim()
    .max(RATING_COMMENT_MAX_LENGTH, `A comment has at most ${RATING_COMMENT_MAX_LENGTH} characters.`)
    .optional(),
});
export type RateAnswerRequest = z.infer<typeof rateAnswerRequestSchema>;

export const answerRatingSchema = z.object({ rating: ratingValueSchema, comment: z.string().nullable() });
export type AnswerRating = z.infer<typeof answerRatingSchema>;

export const rateAnswerResponseSchema = z.object({
  rating: ratingValueSchema.nullable(),
  comment: z.string().nullable(),
});

export const poorAnswerSchema = z.object({
  answerId: z.string(),
  answer: z.string(),
  questionId: z.string().nullable(),
  question: z.string().nullable(),
  comment: z.string().nullable(),
  ratedAt: z.string(),
  fanId: z.string().nullable(),
  fanName: z.string().nullable(),
  /** The creator has written a correction for this answer. */
  corrected: z.boolean(),
});
export type PoorAnswer = z.infer<typeof poorAnswerSchema>;

export const poorAnswersResponseSchema = z.object({ answers: z.array(poorAnswerSchema) });

/**
 * An AI draft of the creator's reply to a pending fan question (docs/product.md#ai-drafted-replies):
 * written from the creator's content, shown only to the creator, sent only as the creator's own
 * message (one credit when sent, nothing when discarded).
 */
export const replyDraftSchema = z.object({
  questionId: z.string(),
  /** The draft, without citation markers; empty when the content does not cover the question. */
  text: z.string(),
  /** What the draft rests on, for the creator to check (never sent to the fan). */
  sources: z.array(messageSourceSchema),
  /** False: the creator's content does not cover the question, and there is no draft to send. */
  covered: z.boolean(),
  /** The model that wrote it; null: the embedded answerer. */
  model: z.string().nullable(),
  /** open: in the reply box; sent: used in a reply (charged); discarded: set aside (free). */
  status: z.enum(['open', 'sent', 'discarded']),
});
export type ReplyDraft = z.infer<typeof replyDraftSchema>;

export const replyDraftParamsSchema = z.object({
  username: z.string().min(1).max(100),
  messageId: messageIdSchema,
});
export const replyDraftResponseSchema = z.object({ draft: replyDraftSchema });
