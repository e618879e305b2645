import {
  answerGapRequestSchema,
  answerGapResponseSchema,
  dismissGapsRequestSchema,
  dismissGapsResponseSchema,
  knowledgeGapsResponseSchema,
  usernameParamsSchema,
} from '@fanpilot/contracts';
import { closeKnowledgeGaps, openKnowledgeGaps } from '@fanpilot/knowledge/answer';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { badRequest, notFound } from '../../errors.ts';
import { ownInboxByParam } from '../../plugins/changes.ts';
import { chatbotsRepository } from '../../repositories/chatbots.ts';
import { toKnowledgeItem } from '../../serializers.ts';
import { sendToFan } from '../../services/conversations.ts';
import { addKnowledgeFile } from '../../services/knowledge.ts';
import { requestPush } from '../../services/push.ts';

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
export async function knowledgeGapsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/creators/username/:username/knowledge-gaps',
    {
      config: { versionedBy: ownInboxByParam },
      schema: { params: usernameParamsSchema, response: { 200: knowledgeGapsResponseSchema } },
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
    '/api/creators/username/:username/knowledge-gaps/answer',
    {
      schema: {
        params: usernameParamsSchema,
        body: answerGapRequestSchema,
        response: { 200: answerGapResponseSchema },
      },
    },
    async (request) => {
      const creator = await app.requireOwner(request, request.params.username);
      const chatbot = await chatbotsRepository(app.db).findByCreator(creator.id);
      if (!chatbot) throw notFound('Create your chatbot first.');
      const open = await app.db
        .selectFrom('messages')
        .select('id')
        .where('creator_id', '=', creator.id)
        .where('id', 'in', request.body.questionIds)
        .where('knowledge_gap_at', 'is not', null)
        .where('gap_closed_at', 'is', null)
        .execute();
      if (open.length === 0) {
        throw badRequest('These questions are no longer open. Reload the list.', 'no_open_gaps');
      }
      const note = gapNote(request.body.question, request.body.answer);
      const item = await addKnowledgeFile(
        app,
        request.log,
        chatbot.id,
        Buffer.from(note.text, 'utf8'),
        note.fileName,
      );
      const closed = await closeKnowledgeGaps(
        app.db,
        creator.id,
        open.map((m) => String(m.id)),
      );
      let sentTo = 0;
      if (request.body.sendToFans) {
        const fanIds = [...new Set(closed.map((c) => c.fanId).filter((id): id is string => id !== null))];
        const fans = fanIds.length
          ? await app.db
              .selectFrom('fans')
              .selectAll()
              .where('creator_id', '=', creator.id)
              .where('id', 'in', fanIds)
              .execute()
          : [];
        for (const fan of fans) {
          const sent = await sendToFan(app.db, creator.id, fan, request.body.answer.trim());
          await requestPush(app.jobs, { kind: 'message', id: sent.messageId }, request.log);
          sentTo++;
        }
      }
      return { item: toKnowledgeItem(item), closed: closed.length, sentTo };
    },
  );

  r.post(
    '/api/creators/username/:username/knowledge-gaps/dismiss',
    {
      schema: {
        params: usernameParamsSchema,
        body: dismissGapsRequestSchema,
        response: { 200: dismissGapsResponseSchema },
      },
    },
    async (request) => {
      const creator = await app.requireOwner(request, request.params.username);
      const closed = await closeKnowledgeGaps(app.db, creator.id, request.body.questionIds);
      return { closed: closed.length };
    },
  );
}
