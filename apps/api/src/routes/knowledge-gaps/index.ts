import type { ModelEnv } from '@fanpilot/answers';
import { calls } from '@fanpilot/contracts';
import {
  addKnowledgeFile,
  closeKnowledgeGaps,
  fansByIds,
  openKnowledgeGaps,
  requireChatbot,
  requireOpenGaps,
  saveCorrection,
  sendToFan,
} from '@fanpilot/core';
import { embedderFor } from '@fanpilot/knowledge';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ownInboxByParam } from '../../plugins/changes.ts';
import { toKnowledgeItem } from '../../serializers.ts';
import { knowledgePorts } from '../../services/knowledge.ts';

/** The note a gap's answer is saved as: a TXT knowledge file the AI reads like any other. */
export function gapNote(question: string, answer: string) {
  const oneLine = question.replace(/\s+/g, ' ').trim();
  const name =
    oneLine
      .replace(/[\\/:*?"<>|]/g, ' ')
      .slice(0, 80)
      .trim() || 'Answer';
  return {
    fileName: `Q&A - ${name}.txt`,
    text: `Question: ${oneLine}\n\nAnswer: ${answer.trim()}\n`,
  };
}

/**
 * Knowledge gaps: fan questions the AI could not ground in the creator's knowledge, grouped, for the
 * "Questions your content doesn't answer" card. The signed-in creator's own only.
 */
export async function knowledgeGapsRoutes(app: FastifyInstance, opts: { env: ModelEnv }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    calls.knowledgeGaps.path,
    {
      config: { versionedBy: ownInboxByParam },
      schema: calls.knowledgeGaps.schema,
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      reply.header('cache-control', 'no-store');
      const gaps = await openKnowledgeGaps(app.db, creator.id);
      return {
        gaps: gaps.slice(0, 50).map((g) => ({ ...g, lastAskedAt: g.lastAskedAt.toISOString() })),
      };
    },
  );

  r.post(
    calls.answerKnowledgeGap.path,
    {
      schema: calls.answerKnowledgeGap.schema,
    },
    async (request) => {
      const creator = await app.requireOwner(request, request.params.username);
      const chatbot = await requireChatbot(app.db, creator.id);
      const open = await requireOpenGaps(app.db, creator.id, request.body.questionIds);
      const note = gapNote(request.body.question, request.body.answer);
      const item = await addKnowledgeFile(
        knowledgePorts(app),
        { creatorId: creator.id },
        { chatbotId: chatbot.id, bytes: Buffer.from(note.text, 'utf8'), fileName: note.fileName },
      );
      // The answer also wins for this question and its paraphrases from now on (a correction).
      const embedder = embedderFor(opts.env);
      const vector = embedder ? await embedder.embedQuery(request.body.question).catch(() => null) : null;
      await saveCorrection(app.db, {
        creatorId: creator.id,
        question: request.body.question,
        answer: request.body.answer,
        embedding: vector,
        embeddingModel: vector && embedder ? embedder.model : null,
      });
      const closed = await closeKnowledgeGaps(app.db, creator.id, open);
      let sentTo = 0;
      if (request.body.sendToFans) {
        const fanIds = [...new Set(closed.map((c) => c.fanId).filter((id): id is string => id !== null))];
        const fans = await fansByIds(app.db, creator.id, fanIds);
        for (const fan of fans) {
          await sendToFan(
            { db: app.db },
            { creatorId: creator.id, to: fan, text: request.body.answer.trim() },
          );
          sentTo++;
        }
      }
      return { item: toKnowledgeItem(item), closed: closed.length, sentTo };
    },
  );

  r.post(
    calls.dismissKnowledgeGap.path,
    {
      schema: calls.dismissKnowledgeGap.schema,
    },
    async (request) => {
      const creator = await app.requireOwner(request, request.params.username);
      const closed = await closeKnowledgeGaps(app.db, creator.id, request.body.questionIds);
      return { closed: closed.length };
    },
  );
}
