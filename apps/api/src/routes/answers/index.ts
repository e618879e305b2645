import { answererFor, draftReply, type ModelEnv, tryChatbot } from '@fanpilot/answers';
import { calls } from '@fanpilot/contracts';
import {
  type Correction,
  correctAnswer,
  DomainError,
  deleteCorrection,
  discardReplyDraft,
  type EmbedQuestions,
  listCorrections,
  poorlyRatedAnswers,
  rateAnswerAsFan,
  requireChatbot,
  sendCorrection,
  wrongAnswers,
} from '@fanpilot/core';
import { embedderFor } from '@fanpilot/knowledge';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { toMessageSource } from '../../conversation-serializers.ts';
import { HttpError } from '../../errors.ts';
import { ownInboxByParam } from '../../plugins/changes.ts';
import { networkOf, retryAfterWords } from '../../plugins/rate-limit.ts';
import { fanRequester } from '../../services/conversations.ts';

/** Reply drafts a creator may ask for per minute (each question is drafted once, then read back). */
const DRAFTS_PER_MINUTE = 60;

const toCorrection = (c: Correction) => ({
  id: c.id,
  question: c.question,
  answer: c.answer,
  correctedMessageId: c.correctedMessageId,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

/** The question's embedding for a correction, or null (no embedder, or it failed: words still match). */
async function embedQuestion(env: ModelEnv, question: string) {
  const embedder = embedderFor(env);
  if (!embedder) return { embedding: null, embeddingModel: null };
  try {
    return { embedding: await embedder.embedQuery(question), embeddingModel: embedder.model };
  } catch {
    return { embedding: null, embeddingModel: null };
  }
}

/** Fan questions embedded to be compared with a correction's, or null (no embedder, or it failed). */
const embedQuestions =
  (env: ModelEnv): EmbedQuestions =>
  async (texts) => {
    const embedder = embedderFor(env);
    if (!embedder) return null;
    try {
      return { vectors: await embedder.embedDocuments(texts), model: embedder.model };
    } catch {
      return null;
    }
  };

/**
 * The creator tries and corrects the AI's answers; fans rate them (docs/product.md#try-your-chatbot,
 * #corrections, #fans-rate-answers). Routes only map: the rules are in core and answers.
 */
export async function answersRoutes(
  app: FastifyInstance,
  opts: {
    env: ModelEnv;
    /** Playground questions per creator per minute. */
    playgroundPerMinute: number;
    fanReadsPerIpPerMinute: number;
  },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const playgroundLimit = app.limiter({
    name: 'playground-creator',
    max: opts.playgroundPerMinute,
    windowSeconds: 60,
    key: (request: FastifyRequest) =>
      `${(request.params as { username?: string }).username ?? ''}`.toLowerCase(),
    message: (seconds) =>
      `You are trying your chatbot very fast. Please wait ${retryAfterWords(seconds)} and try again.`,
  });
  // Drafts are written once per question and read back after: this bounds a runaway client only.
  const draftLimit = app.limiter({
    name: 'draft-creator',
    max: DRAFTS_PER_MINUTE,
    windowSeconds: 60,
    key: (request: FastifyRequest) =>
      `${(request.params as { username?: string }).username ?? ''}`.toLowerCase(),
    message: (seconds) => `Too many drafts at once. Please wait ${retryAfterWords(seconds)} and try again.`,
  });
  const ratingLimit = app.limiter({
    name: 'rating-ip',
    max: opts.fanReadsPerIpPerMinute,
    windowSeconds: 60,
    key: networkOf,
    message: (seconds) =>
      `Too many ratings from this network. Please wait ${retryAfterWords(seconds)} and try again.`,
  });

  r.get(calls.answerer.path, { schema: calls.answerer.schema }, async (request, reply) => {
    const creator = await app.requireOwner(request, request.params.username);
    const chatbot = await requireChatbot(app.db, creator.id);
    reply.header('cache-control', 'no-store');
    return answererFor(chatbot.model, opts.env);
  });

  r.post(calls.tryChatbot.path, { schema: calls.tryChatbot.schema }, async (request) => {
    const creator = await app.requireOwner(request, request.params.username);
    await playgroundLimit(request);
    const tried = await tryChatbot(
      { db: app.db, env: opts.env, timeoutMs: 30_000 },
      { creatorId: creator.id, creatorName: creator.name, question: request.body.question },
    ).catch((error: unknown) => {
      if (error instanceof DomainError) throw error;
      // The model provider failed (a fan's answer would be retried; a try is not).
      request.log.warn({ err: error }, 'playground: the model did not answer');
      throw new HttpError(
        502,
        'model_unavailable',
        'The AI model did not answer. Please try again in a moment.',
      );
    });
    return {
      question: request.body.question,
      answer: tried.body,
      sources: tried.sources.map(toMessageSource),
      passages: tried.passages.map((p) => ({
        title: p.title,
        source: p.source,
        content: p.content,
        score: p.score,
      })),
      handedOver: tried.handOver,
      model: tried.model,
      correction: tried.correction ? { id: tried.correction.id, question: tried.correction.question } : null,
    };
  });

  r.post(calls.replyDraft.path, { schema: calls.replyDraft.schema }, async (request) => {
    const creator = await app.requireOwner(request, request.params.username);
    await draftLimit(request);
    const draft = await draftReply(
      { db: app.db, env: opts.env, timeoutMs: 30_000 },
      { creatorId: creator.id, creatorName: creator.name, questionId: request.params.messageId },
    ).catch((error: unknown) => {
      if (error instanceof DomainError) throw error;
      request.log.warn({ err: error }, 'reply draft: the model did not answer');
      throw new HttpError(
        502,
        'model_unavailable',
        'The AI could not draft a reply just now. Write your reply, or try again in a moment.',
      );
    });
    return { draft };
  });

  r.delete(calls.discardReplyDraft.path, { schema: calls.discardReplyDraft.schema }, async (request) => {
    const creator = await app.requireOwner(request, request.params.username);
    const draft = await discardReplyDraft(app.db, {
      creatorId: creator.id,
      questionId: request.params.messageId,
    });
    return { draft };
  });

  r.get(
    calls.corrections.path,
    { config: { versionedBy: ownInboxByParam }, schema: calls.corrections.schema },
    async (request) => {
      const creator = await app.requireOwner(request, request.params.username);
      return { corrections: (await listCorrections(app.db, creator.id)).map(toCorrection) };
    },
  );

  r.post(calls.correctAnswer.path, { schema: calls.correctAnswer.schema }, async (request) => {
    const creator = await app.requireOwner(request, request.params.username);
    const { question, answer, messageId, sendToFan } = request.body;
    const { correction, sent } = await correctAnswer(app.db, {
      creatorId: creator.id,
      question,
      answer,
      messageId: messageId ?? null,
      sendToFan,
      embedQuestions: embedQuestions(opts.env),
      ...(await embedQuestion(opts.env, question)),
    });
    return { correction: toCorrection(correction), sentTo: sent.length };
  });

  r.delete(calls.deleteCorrection.path, { schema: calls.deleteCorrection.schema }, async (request) => {
    const creator = await app.requireOwner(request, request.params.username);
    await deleteCorrection(app.db, creator.id, request.params.id);
    return { success: true as const };
  });

  r.get(calls.correctionFans.path, { schema: calls.correctionFans.schema }, async (request, reply) => {
    const creator = await app.requireOwner(request, request.params.username);
    const fans = await wrongAnswers(app.db, creator.id, request.params.id, embedQuestions(opts.env));
    reply.header('cache-control', 'no-store');
    return {
      fans: fans.map((f) => ({
        fanId: f.fanKey,
        fanName: f.fanName,
        question: f.question,
        answerId: f.answerId,
        answeredAt: f.answeredAt.toISOString(),
        sent: f.sent,
      })),
    };
  });

  r.post(calls.sendCorrection.path, { schema: calls.sendCorrection.schema }, async (request) => {
    const creator = await app.requireOwner(request, request.params.username);
    const sent = await sendCorrection(app.db, creator.id, request.params.id, embedQuestions(opts.env));
    return { sentTo: sent.length };
  });

  r.get(
    calls.poorAnswers.path,
    { config: { versionedBy: ownInboxByParam }, schema: calls.poorAnswers.schema },
    async (request) => {
      const creator = await app.requireOwner(request, request.params.username);
      const answers = await poorlyRatedAnswers(app.db, creator.id);
      return {
        answers: answers.map((a) => ({
          answerId: a.answerId,
          answer: a.answer,
          questionId: a.questionId,
          question: a.question,
          comment: a.comment,
          ratedAt: a.ratedAt.toISOString(),
          fanId: a.fanKey,
          fanName: a.fanName,
          corrected: a.corrected,
        })),
      };
    },
  );

  r.put(
    calls.rateAnswer.path,
    { onRequest: ratingLimit, schema: calls.rateAnswer.schema },
    async (request) => {
      const { fanId, messageId } = request.params;
      return rateAnswerAsFan(app.db, await fanRequester(request), {
        fanKey: fanId,
        messageId,
        rating: request.body.rating,
        comment: request.body.comment ?? null,
      });
    },
  );
}
