import { randomUUID } from 'node:crypto';
import {
  addKnowledgeRequestSchema,
  addYoutubeRequestSchema,
  chatbotIdParamsSchema,
  deleteKnowledgeResponseSchema,
  KNOWLEDGE_FILE_MAX_BYTES,
  knowledgeIdParamsSchema,
  knowledgeItemResponseSchema,
  knowledgeProgressSchema,
} from '@fanpilot/contracts';
import {
  detectKnowledgeFile,
  fetchYoutubeTitle,
  type IngestEnv,
  IngestError,
  ingestRunId,
  MIME_BY_KIND,
  parseYoutubeUrl,
} from '@fanpilot/knowledge';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { badRequest, conflict, HttpError } from '../../errors.ts';
import { knowledgeRepository } from '../../repositories/knowledge.ts';
import { toKnowledgeItem } from '../../serializers.ts';
import {
  assertRoom,
  enqueueItems,
  ownedChatbot,
  ownedKnowledgeItem,
  parseSource,
  progressOf,
  toNewItem,
} from '../../services/knowledge.ts';

const tooLarge = () =>
  new HttpError(
    413,
    'file_too_large',
    `The file is larger than ${KNOWLEDGE_FILE_MAX_BYTES / 1024 / 1024} MB.`,
  );

/** A file name safe to store and show: its last path part, printable, at most 200 characters. */
const cleanFileName = (name: string) =>
  (name.split(/[\\/]/).pop() ?? '')
    .split('')
    .filter((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f)
    .join('')
    .trim()
    .slice(-200);

export async function knowledgeRoutes(app: FastifyInstance, opts: { ingest: IngestEnv }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const items = () => knowledgeRepository(app.db);

  r.get(
    '/api/chatbots/:id/knowledge/progress',
    { schema: { params: chatbotIdParamsSchema, response: { 200: knowledgeProgressSchema } } },
    async (request) => {
      const { chatbot } = await ownedChatbot(app, request, request.params.id);
      return progressOf(await items().listByChatbot(chatbot.id));
    },
  );

  r.post(
    '/api/add-knowledge',
    { schema: { body: addKnowledgeRequestSchema, response: { 201: knowledgeItemResponseSchema } } },
    async (request, reply) => {
      const { chatbot } = await ownedChatbot(app, request, request.body.chatbotId);
      const source = parseSource(request.body.url);
      await assertRoom(app.db, chatbot.id, 1);
      const item = await items().insert(toNewItem(chatbot.id, source));
      await enqueueItems(app.jobs, request.log, [item]);
      return reply.code(201).send(toKnowledgeItem(item));
    },
  );

  r.post(
    '/api/chatbots/:id/knowledge/youtube',
    {
      schema: {
        params: chatbotIdParamsSchema,
        body: addYoutubeRequestSchema,
        response: { 201: knowledgeItemResponseSchema },
      },
    },
    async (request, reply) => {
      const { chatbot } = await ownedChatbot(app, request, request.params.id);
      let link: ReturnType<typeof parseYoutubeUrl>;
      try {
        link = parseYoutubeUrl(request.body.youtubeUrl);
      } catch (err) {
        throw badRequest(
          err instanceof IngestError ? err.reason : 'This is not a YouTube video link.',
          'invalid_youtube_url',
        );
      }
      await assertRoom(app.db, chatbot.id, 1);
      // The title is asked for now (the answer carries it); a slow or silent YouTube leaves it to the worker.
      const title = await fetchYoutubeTitle(link.videoId, {
        origin: opts.ingest.INGEST_YOUTUBE_ORIGIN,
        timeoutMs: Math.min(5_000, opts.ingest.INGEST_FETCH_TIMEOUT_MS),
      });
      const item = await items().insert(toNewItem(chatbot.id, { type: 'youtube', link }, title));
      await enqueueItems(app.jobs, request.log, [item]);
      return reply.code(201).send({ ...toKnowledgeItem(item), title: title ?? 'YouTube Video' });
    },
  );

  r.post(
    '/api/chatbots/:id/knowledge/upload',
    { schema: { params: chatbotIdParamsSchema, response: { 201: knowledgeItemResponseSchema } } },
    async (request, reply) => {
      const { chatbot } = await ownedChatbot(app, request, request.params.id);
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
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
        throw badRequest('The upload could not be read. Please try again.', 'invalid_upload');
      }
      if (part?.fieldname !== 'file') {
        part?.file.resume();
        throw badRequest('Choose a file to upload (form field "file").', 'no_file');
      }
      let bytes: Buffer;
      try {
        bytes = await part.toBuffer();
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
        throw badRequest('The upload could not be read. Please try again.', 'invalid_upload');
      }
      if (part.file.truncated || bytes.length > KNOWLEDGE_FILE_MAX_BYTES) throw tooLarge();
      const fileName = cleanFileName(part.filename || '');
      if (!fileName) throw badRequest('The file has no name.', 'no_file');
      let kind: Awaited<ReturnType<typeof detectKnowledgeFile>>;
      try {
        kind = await detectKnowledgeFile(bytes, fileName);
      } catch (err) {
        if (err instanceof IngestError) throw badRequest(err.reason, 'unsupported_file');
        throw err;
      }
      await assertRoom(app.db, chatbot.id, 1);
      const id = randomUUID();
      const key = `knowledge/${chatbot.id}/${id}`;
      await app.storage.put(key, bytes, MIME_BY_KIND[kind]);
      let item: Awaited<ReturnType<ReturnType<typeof items>['insert']>>;
      try {
        item = await items().insert({
          id,
          chatbotId: chatbot.id,
          type: 'file',
          fileName,
          fileKey: key,
          fileSize: bytes.length,
        });
      } catch (err) {
        await app.storage.remove(key).catch(() => {});
        throw err;
      }
      await enqueueItems(app.jobs, request.log, [item]);
      return reply.code(201).send(toKnowledgeItem(item));
    },
  );

  r.delete(
    '/api/knowledge/:id',
    { schema: { params: knowledgeIdParamsSchema, response: { 200: deleteKnowledgeResponseSchema } } },
    async (request) => {
      const item = await ownedKnowledgeItem(app, request, request.params.id);
      const removed = await items().remove(item.id);
      if (removed?.file_key) {
        await app.storage.remove(removed.file_key).catch((err) => {
          request.log.warn({ key: removed.file_key, err }, 'could not remove a knowledge file from storage');
        });
      }
      return { success: true as const, id: item.id };
    },
  );

  r.post(
    '/api/knowledge/:id/retry',
    { schema: { params: knowledgeIdParamsSchema, response: { 200: knowledgeItemResponseSchema } } },
    async (request) => {
      const item = await ownedKnowledgeItem(app, request, request.params.id);
      if (item.status !== 'failed') {
        throw conflict('Only a failed knowledge source can be retried.', 'not_failed');
      }
      const updated = await items().requeue(item.id, ingestRunId(item.id, 'retry'), ['failed']);
      if (!updated) throw conflict('This knowledge source changed meanwhile; reload and try again.');
      await enqueueItems(app.jobs, request.log, [updated]);
      return toKnowledgeItem(updated);
    },
  );

  r.post(
    '/api/knowledge/:id/resync',
    { schema: { params: knowledgeIdParamsSchema, response: { 200: knowledgeItemResponseSchema } } },
    async (request) => {
      const item = await ownedKnowledgeItem(app, request, request.params.id);
      if (item.type === 'file') {
        throw badRequest('A file cannot be re-synced; upload the new version instead.', 'not_resyncable');
      }
      if (item.status === 'pending' || item.status === 'processing') {
        throw conflict('This knowledge source is already being processed.', 'in_progress');
      }
      const updated = await items().requeue(item.id, ingestRunId(item.id, 'resync'), [
        'completed',
        'active',
        'failed',
      ]);
      if (!updated) throw conflict('This knowledge source changed meanwhile; reload and try again.');
      await enqueueItems(app.jobs, request.log, [updated]);
      return toKnowledgeItem(updated);
    },
  );
}
