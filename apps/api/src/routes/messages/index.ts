import { calls, FAN_ATTACHMENT_MIME_TYPES } from '@fanpilot/contracts';
import {
  answerAsCreator,
  deleteConversation,
  downloadableAttachment,
  fansRepository,
  messagesRepository,
  readCreatorChatlog,
  readFanConversation,
  sendToFan,
} from '@fanpilot/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { toFan, toMessage } from '../../conversation-serializers.ts';
import { notFound } from '../../errors.ts';
import { ownInboxByParam, ownInboxByQuery } from '../../plugins/changes.ts';
import { fanRequester } from '../../services/conversations.ts';

const DEFAULT_MESSAGES_LIMIT = 500;

/** A file name safe inside a quoted header value, plus its exact UTF-8 form (RFC 6266). */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** The creator side of conversations: every route acts on the signed-in creator's own fans only. */
export async function messagesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const messages = messagesRepository(app.db);
  const ports = { db: app.db };
  const fans = fansRepository(app.db);

  r.get(
    calls.messages.path,
    {
      config: { versionedBy: ownInboxByParam },
      schema: calls.messages.schema,
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      reply.header('cache-control', 'no-store');
      const list = await messages.latestForCreator(creator.id, request.query.limit ?? DEFAULT_MESSAGES_LIMIT);
      return list.map(toMessage);
    },
  );

  const listFans = async (creatorId: string) => (await fans.listWithStats(creatorId)).map(toFan);

  r.get(
    calls.fans.path,
    {
      config: { versionedBy: ownInboxByParam },
      schema: calls.fans.schema,
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      reply.header('cache-control', 'no-store');
      return listFans(creator.id);
    },
  );

  r.get(
    calls.fansByQuery.path,
    {
      config: { versionedBy: ownInboxByQuery },
      schema: calls.fansByQuery.schema,
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.query.creator);
      reply.header('cache-control', 'no-store');
      return listFans(creator.id);
    },
  );

  r.get(
    calls.fanMessages.path,
    {
      config: { versionedBy: ownInboxByParam },
      schema: calls.fanMessages.schema,
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      const rows = await readFanConversation(
        ports,
        { creatorId: creator.id },
        { fanId: request.params.fanId },
      );
      reply.header('cache-control', 'no-store');
      return rows.map(toMessage);
    },
  );

  r.get(
    calls.chatlog.path,
    {
      config: { versionedBy: ownInboxByQuery },
      schema: calls.chatlog.schema,
    },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.query.creator);
      const latest = await readCreatorChatlog(ports, { creatorId: creator.id });
      reply.header('cache-control', 'no-store');
      return { messages: latest.map(toMessage) };
    },
  );

  r.delete(
    calls.deleteConversation.path,
    {
      schema: calls.deleteConversation.schema,
    },
    async (request) => {
      const creator = await app.requireOwner(request, request.query.creator);
      const deleted = await deleteConversation(
        { db: app.db, storage: app.storage },
        { creatorId: creator.id, fanIdOrName: request.params.fanIdOrName },
      );
      return { success: true as const, deletedMessages: deleted };
    },
  );

  r.post(calls.answer.path, { schema: calls.answer.schema }, async (request) => {
    const creator = await app.requireOwner(request, request.body.creator);
    const replyId = await answerAsCreator(
      { db: app.db },
      {
        creatorId: creator.id,
        messageId: request.body.messageId,
        text: request.body.response,
        draftFor: request.body.draftFor,
      },
    );
    const stored = await messages.findView(replyId);
    return {
      success: true as const,
      message: toMessage(stored!),
      answeredMessageId: request.body.messageId,
    };
  });

  r.post(calls.sendMessage.path, { schema: calls.sendMessage.schema }, async (request) => {
    const creator = await app.requireOwner(request, request.body.creatorUsername);
    const sent = await sendToFan(
      { db: app.db },
      {
        creatorId: creator.id,
        to: request.body.fanId,
        text: request.body.message,
        draftFor: request.body.draftFor,
      },
    );
    const stored = await messages.findView(sent.messageId);
    return {
      success: true as const,
      message: toMessage(stored!),
      answeredMessageId: sent.answeredMessageId,
    };
  });

  r.get(
    calls.downloadAttachment.path,
    { schema: calls.downloadAttachment.schema },
    async (request, reply) => {
      const { id } = request.params;
      const file = await downloadableAttachment(app.db, await fanRequester(request), id);
      const object = await app.storage.get(file.storage_key);
      if (!object) throw notFound('This file is no longer available.');
      const type = (FAN_ATTACHMENT_MIME_TYPES as readonly string[]).includes(file.mime_type)
        ? file.mime_type
        : 'application/octet-stream';
      reply
        .type(type)
        .header('content-disposition', contentDisposition(file.original_filename))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, no-store');
      if (object.contentLength !== undefined) reply.header('content-length', String(object.contentLength));
      return reply.send(object.body);
    },
  );
}
