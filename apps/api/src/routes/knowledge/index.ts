import { calls, KNOWLEDGE_FILE_MAX_BYTES } from '@fanpilot/contracts';
import {
  addKnowledgeFile,
  addKnowledgeSource,
  addYoutubeKnowledge,
  DomainError,
  deleteKnowledge,
  knowledgeFileTooLarge,
  knowledgeOfChatbot,
  knowledgeTarget,
  ownKnowledgeFile,
  refetchableKnowledge,
  refetchKnowledge,
  updateKnowledge,
} from '@fanpilot/core';
import { type IngestEnv, ingestRunId } from '@fanpilot/knowledge';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { badRequest, HttpError, notFound } from '../../errors.ts';
import { ownChatbotByParam } from '../../plugins/changes.ts';
import { assertCleanMultipart } from '../../plugins/clean-input.ts';
import { retryAfterWords } from '../../plugins/rate-limit.ts';
import { toKnowledgeItem } from '../../serializers.ts';
import { knowledgePorts, progressOf } from '../../services/knowledge.ts';
import { assertOwnUploadKey } from '../../services/uploads.ts';

/**
 * Re-fetches of existing sources (retry and re-sync) one creator may start per window: each one
 * fetches a page, a whole sitemap or a video's transcript again.
 */
export const KNOWLEDGE_REFETCH_LIMIT = { max: 30, windowSeconds: 10 * 60 };

export async function knowledgeRoutes(app: FastifyInstance, opts: { ingest: IngestEnv }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ports = knowledgePorts(app, opts.ingest);
  const requester = async (request: FastifyRequest) => ({
    creatorId: (await app.requireCreator(request)).id,
  });
  // Counted per creator, only for calls that do start a fetch (after the checks below).
  const refetcher = new WeakMap<FastifyRequest, string>();
  const refetchLimit = app.limiter({
    name: 'knowledge-refetch',
    max: KNOWLEDGE_REFETCH_LIMIT.max,
    windowSeconds: KNOWLEDGE_REFETCH_LIMIT.windowSeconds,
    key: (request) => refetcher.get(request) ?? '',
    message: (seconds) =>
      `Too many re-syncs and retries. Please wait ${retryAfterWords(seconds)} before fetching a source again.`,
  });
  const countRefetch = async (request: FastifyRequest) => {
    refetcher.set(request, (await app.requireCreator(request)).id);
    await refetchLimit(request);
  };

  r.get(
    calls.knowledgeProgress.path,
    {
      config: { versionedBy: ownChatbotByParam },
      schema: calls.knowledgeProgress.schema,
    },
    async (request) =>
      progressOf(await knowledgeOfChatbot(ports, await requester(request), { chatbotId: request.params.id })),
  );

  r.post(calls.addKnowledge.path, { schema: calls.addKnowledge.schema }, async (request, reply) => {
    const item = await addKnowledgeSource(ports, await requester(request), request.body);
    return reply.send(toKnowledgeItem(item));
  });

  r.post(
    calls.addYoutubeKnowledge.path,
    {
      schema: calls.addYoutubeKnowledge.schema,
    },
    async (request, reply) => {
      const item = await addYoutubeKnowledge(ports, await requester(request), {
        chatbotId: request.params.id,
        youtubeUrl: request.body.youtubeUrl,
      });
      return reply.send({ ...toKnowledgeItem(item), title: item.title ?? 'YouTube Video' });
    },
  );

  // The one call that takes multipart/form-data, so @fastify/multipart is registered for it alone:
  // its hooks (an onRequest adding a close listener that holds the request and its reply) run on no
  // other request, and an event stream does not keep its request for hours (issue 39). A form sent
  // to any other call is refused (415). One file of at most 10 MB, checked again below.
  await app.register(async (upload) => {
    await upload.register(multipart, {
      limits: { fileSize: KNOWLEDGE_FILE_MAX_BYTES, files: 1, fields: 10, parts: 12, fieldSize: 64 * 1024 },
    });
    upload
      .withTypeProvider<ZodTypeProvider>()
      .post(
        calls.uploadKnowledgeFile.path,
        { schema: calls.uploadKnowledgeFile.schema },
        async (request, reply) => {
          const who = await requester(request);
          const { chatbotId } = await knowledgeTarget(ports, who, { chatbotId: request.params.id });
          if (!request.isMultipart()) {
            throw new HttpError(
              415,
              'unsupported_media_type',
              'Send the file as multipart/form-data in the field "file".',
            );
          }
          let part: Awaited<ReturnType<typeof request.file>>;
          try {
            part = await request.file({ limits: { fileSize: KNOWLEDGE_FILE_MAX_BYTES, files: 1 } });
          } catch (err) {
            if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw knowledgeFileTooLarge();
            throw badRequest('The upload could not be read. Please try again.', 'invalid_upload');
          }
          if (part) assertCleanMultipart(part);
          if (part?.fieldname !== 'file') {
            part?.file.resume();
            throw badRequest('Choose a file to upload (form field "file").', 'no_file');
          }
          let bytes: Buffer;
          try {
            bytes = await part.toBuffer();
          } catch (err) {
            if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw knowledgeFileTooLarge();
            throw badRequest('The upload could not be read. Please try again.', 'invalid_upload');
          }
          if (part.file.truncated) throw knowledgeFileTooLarge();
          const item = await addKnowledgeFile(ports, who, {
            chatbotId,
            bytes,
            fileName: part.filename || '',
          });
          return reply.send(toKnowledgeItem(item));
        },
      );
  });

  r.post(
    calls.addUploadedKnowledgeFile.path,
    {
      schema: calls.addUploadedKnowledgeFile.schema,
    },
    async (request, reply) => {
      const who = await requester(request);
      const { chatbotId } = await knowledgeTarget(ports, who, { chatbotId: request.params.id });
      const { key } = request.body;
      assertOwnUploadKey(who.creatorId, key);
      const head = await app.storage.head(key);
      if (!head) throw notFound('The uploaded file was not found; upload it again.');
      const discard = () =>
        app.storage.remove(key).catch((err) => {
          request.log.warn({ key, err }, 'could not remove an uploaded file from storage');
        });
      if (head.contentLength > KNOWLEDGE_FILE_MAX_BYTES) {
        await discard();
        throw knowledgeFileTooLarge();
      }
      const object = await app.storage.get(key);
      if (!object) throw notFound('The uploaded file was not found; upload it again.');
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of object.body) {
        size += (chunk as Uint8Array).length;
        if (size > KNOWLEDGE_FILE_MAX_BYTES) {
          object.body.destroy();
          await discard();
          throw knowledgeFileTooLarge();
        }
        chunks.push(Buffer.from(chunk as Uint8Array));
      }
      let item: Awaited<ReturnType<typeof addKnowledgeFile>>;
      try {
        item = await addKnowledgeFile(ports, who, {
          chatbotId,
          bytes: Buffer.concat(chunks),
          fileName: request.body.filename ?? key.slice(key.lastIndexOf('/') + 1),
          fansMayDownload: request.body.fansMayDownload === true,
        });
      } catch (err) {
        // A refused file is gone for good; anything else (a full chatbot, the database away) may be tried again.
        if (err instanceof DomainError && (err.reason === 'invalid' || err.reason === 'too_large')) {
          await discard();
        }
        throw err;
      }
      // The file now lives under knowledge/…, with the item; the upload's copy is no longer needed.
      await discard();
      return reply.send(toKnowledgeItem(item));
    },
  );

  r.delete(calls.deleteKnowledge.path, { schema: calls.deleteKnowledge.schema }, async (request) => {
    const { id } = await deleteKnowledge(
      ports,
      await requester(request),
      { itemId: request.params.id },
      (key, err) => request.log.warn({ key, err }, 'could not remove a knowledge file from storage'),
    );
    return { success: true as const, id };
  });

  r.patch(calls.updateKnowledge.path, { schema: calls.updateKnowledge.schema }, async (request) => {
    const item = await updateKnowledge(ports, await requester(request), {
      itemId: request.params.id,
      fansMayDownload: request.body.fansMayDownload,
    });
    return toKnowledgeItem(item);
  });

  r.post(calls.retryKnowledge.path, { schema: calls.retryKnowledge.schema }, async (request) => {
    const who = await requester(request);
    const input = { itemId: request.params.id, how: 'retry' as const };
    const item = await refetchableKnowledge(ports, who, input);
    await countRefetch(request);
    const updated = await refetchKnowledge(ports, who, { ...input, runId: ingestRunId(item.id, 'retry') });
    return toKnowledgeItem(updated);
  });

  r.post(calls.resyncKnowledge.path, { schema: calls.resyncKnowledge.schema }, async (request) => {
    const who = await requester(request);
    const input = { itemId: request.params.id, how: 'resync' as const };
    const item = await refetchableKnowledge(ports, who, input);
    await countRefetch(request);
    const updated = await refetchKnowledge(ports, who, { ...input, runId: ingestRunId(item.id, 'resync') });
    return toKnowledgeItem(updated);
  });

  /**
   * The creator's own file, to open from the Knowledge Base (issue 29): PDFs and plain text shown
   * by the browser, other types downloaded; never cached by anything shared.
   */
  r.get(calls.knowledgeFile.path, { schema: calls.knowledgeFile.schema }, async (request, reply) => {
    const creator = await app.requireCreator(request);
    const file = await ownKnowledgeFile(app.db, creator.id, request.params.id);
    const object = await app.storage.get(file.file_key);
    if (!object) throw notFound('This file is no longer available.');
    const type = object.contentType ?? 'application/octet-stream';
    const name = file.file_name ?? 'document';
    const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
    const inline = type === 'application/pdf' || type.startsWith('text/plain');
    reply
      .type(type.startsWith('text/plain') ? 'text/plain; charset=utf-8' : type)
      .header(
        'content-disposition',
        `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      )
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store');
    if (object.contentLength !== undefined) reply.header('content-length', String(object.contentLength));
    return reply.send(object.body);
  });
}
