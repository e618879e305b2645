import { randomUUID } from 'node:crypto';
import { KNOWLEDGE_FILE_EXTENSIONS, KNOWLEDGE_FILE_MAX_BYTES, UPLOAD_WIDGET } from '@fanpilot/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, forbidden, HttpError, notFound } from '../../errors.ts';
import { cleanFileName, knowledgeFileTooLarge } from '../../services/knowledge.ts';

/**
 * The upload widget's calls (SPEC section 7): the S3 protocol Uppy's @uppy/aws-s3 plugin speaks to
 * a signing server (`companionEndpoint: '/api'`). The browser sends the bytes straight to the store
 * with short-lived pre-signed requests; these calls only create, sign, list, complete and abort.
 * Objects land under knowledge-uploads/{creatorId}/{uuid}/{file name}, and POST
 * /api/chatbots/{id}/knowledge/uploaded then turns one into a knowledge item.
 */

export const KNOWLEDGE_UPLOAD_PREFIX = 'knowledge-uploads';
/** How long a pre-signed upload request (form POST or part PUT) stays valid. */
export const UPLOAD_URL_EXPIRES_SECONDS = 10 * 60;

/** The stored type of each allowed extension; the browser's own type must be this or unknown. */
const MIME_BY_EXTENSION: Record<(typeof KNOWLEDGE_FILE_EXTENSIONS)[number], string> = {
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};
const UNKNOWN_TYPES = new Set(['', 'application/octet-stream']);

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const KEY_SHAPE = new RegExp(`^${KNOWLEDGE_UPLOAD_PREFIX}/(${UUID})/${UUID}/[A-Za-z0-9._-]{1,120}$`);

/** The extension and stored type of a knowledge file name, or a 400. */
function knowledgeFileType(filename: string, type: string | undefined): { extension: string; mime: string } {
  const dot = filename.lastIndexOf('.');
  const extension = dot > 0 ? filename.slice(dot).toLowerCase() : '';
  const mime = MIME_BY_EXTENSION[extension as keyof typeof MIME_BY_EXTENSION];
  if (!mime) {
    throw badRequest(
      `Only ${KNOWLEDGE_FILE_EXTENSIONS.join(', ')} files can be uploaded.`,
      'unsupported_file',
    );
  }
  const given = (type ?? '').split(';')[0]!.trim().toLowerCase();
  if (!UNKNOWN_TYPES.has(given) && given !== mime) {
    throw badRequest(`A ${extension} file cannot have the type ${given.slice(0, 100)}.`, 'unsupported_file');
  }
  return { extension, mime };
}

/** A store key of our own for `filename`: the name kept readable but reduced to safe characters. */
export function newKnowledgeUploadKey(creatorId: string, filename: string): string {
  const clean = cleanFileName(filename);
  const dot = clean.lastIndexOf('.');
  const extension = clean.slice(dot).toLowerCase();
  const stem =
    clean
      .slice(0, dot)
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^[._]+/, '')
      .slice(0, 100) || 'file';
  return `${KNOWLEDGE_UPLOAD_PREFIX}/${creatorId}/${randomUUID()}/${stem}${extension}`;
}

/** Is `key` one of this creator's upload keys? A key of another shape or owner is refused (403). */
export function assertOwnUploadKey(creatorId: string, key: string): void {
  const match = KEY_SHAPE.exec(key);
  if (!match || match[1] !== creatorId) {
    throw forbidden('This upload belongs to someone else.');
  }
}

const s3Error = (err: unknown) => {
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  return { name: e?.name ?? '', status: e?.$metadata?.httpStatusCode ?? 0 };
};

/** What the store said, as an answer of ours: its refusals become 4xx, anything else stays an error. */
function storeRefusal(err: unknown): never {
  const { name, status } = s3Error(err);
  if (name === 'NoSuchUpload' || status === 404) {
    throw notFound('This upload does not exist any more; start it again.');
  }
  if (name === 'InvalidPart' || name === 'InvalidPartOrder' || name === 'EntityTooSmall' || status === 400) {
    throw badRequest(
      'The uploaded parts do not match: each part but the last must be at least 5 MB, and every part must be uploaded.',
      'invalid_parts',
    );
  }
  throw err;
}

/** Stores (like the embedded one) that do not implement a multipart call answer 405 or 501. */
const notImplementedByStore = (err: unknown) => {
  const { name, status } = s3Error(err);
  return status === 405 || status === 501 || name === 'NotImplemented' || name === 'MethodNotAllowed';
};

const filenameSchema = z.string().trim().min(1).max(255);
const typeSchema = z.string().max(255).optional();
const keyQuerySchema = z.object({ key: z.string().min(1).max(1024) });
const uploadIdSchema = z
  .string()
  .min(1)
  .max(1024)
  .regex(/^[^\s/?#]+$/, 'Invalid upload id')
  // A store's upload id is a token, never a path step ('.', '..').
  .refine((id) => !/^\.+$/.test(id), 'Invalid upload id');
const partNumberSchema = z.coerce.number().int().min(1).max(UPLOAD_WIDGET.maxParts);

export async function uploadsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Signed-in creators only, before anything else is looked at.
  app.addHook('onRequest', async (request) => {
    await app.requireCreator(request);
  });
  const creatorOf = (request: FastifyRequest) => app.requireCreator(request);

  r.get(
    '/api/s3/params',
    {
      schema: {
        querystring: z.object({ filename: filenameSchema, type: typeSchema }).passthrough(),
      },
    },
    async (request) => {
      const creator = await creatorOf(request);
      const { mime } = knowledgeFileType(request.query.filename, request.query.type);
      const key = newKnowledgeUploadKey(creator.id, request.query.filename);
      // A form POST (S3 POST policy), the only single-request upload the widget makes: the policy
      // also holds the object to 10 MB and to its type.
      const { url, fields } = await app.storage.presignPost(key, {
        contentType: mime,
        maxBytes: KNOWLEDGE_FILE_MAX_BYTES,
        expiresInSeconds: UPLOAD_URL_EXPIRES_SECONDS,
      });
      return { method: 'POST' as const, url, fields, headers: {}, expires: UPLOAD_URL_EXPIRES_SECONDS };
    },
  );

  // No temporary credentials exist here (a 4xx, not a server failure): the widget signs through the
  // calls above instead.
  r.get('/api/s3/sts', async () => {
    throw new HttpError(
      404,
      'not_supported',
      'Temporary storage credentials are not issued; uploads are signed by the server (GET /api/s3/params, POST /api/s3/multipart).',
    );
  });

  r.post(
    '/api/s3/multipart',
    {
      schema: {
        body: z.object({
          filename: filenameSchema,
          type: typeSchema,
          metadata: z.record(z.string(), z.unknown()).optional(),
        }),
      },
    },
    async (request) => {
      const creator = await creatorOf(request);
      const { mime } = knowledgeFileType(request.body.filename, request.body.type);
      const key = newKnowledgeUploadKey(creator.id, request.body.filename);
      const { uploadId } = await app.storage.multipart.create(key, mime);
      return { key, uploadId };
    },
  );

  r.get(
    '/api/s3/multipart/:uploadId',
    { schema: { params: z.object({ uploadId: uploadIdSchema }), querystring: keyQuerySchema } },
    async (request) => {
      const creator = await creatorOf(request);
      assertOwnUploadKey(creator.id, request.query.key);
      try {
        return await app.storage.multipart.listParts(request.query.key, request.params.uploadId);
      } catch (err) {
        // A store that cannot list parts (the embedded one) knows of none: the widget then uploads
        // every part again, which replaces whatever is stored under the same part number.
        if (notImplementedByStore(err)) return [];
        storeRefusal(err);
      }
    },
  );

  r.get(
    '/api/s3/multipart/:uploadId/:partNumber',
    {
      schema: {
        params: z.object({ uploadId: uploadIdSchema, partNumber: partNumberSchema }),
        querystring: keyQuerySchema,
      },
    },
    async (request) => {
      const creator = await creatorOf(request);
      assertOwnUploadKey(creator.id, request.query.key);
      const url = await app.storage.multipart.presignPart(
        request.query.key,
        request.params.uploadId,
        request.params.partNumber,
        UPLOAD_URL_EXPIRES_SECONDS,
      );
      return { url, expires: UPLOAD_URL_EXPIRES_SECONDS };
    },
  );

  r.post(
    '/api/s3/multipart/:uploadId/complete',
    {
      schema: {
        params: z.object({ uploadId: uploadIdSchema }),
        querystring: keyQuerySchema,
        body: z.object({
          parts: z
            .array(z.object({ PartNumber: partNumberSchema, ETag: z.string().min(1).max(200) }))
            .min(1)
            .max(UPLOAD_WIDGET.maxParts),
        }),
      },
    },
    async (request) => {
      const creator = await creatorOf(request);
      const { key } = request.query;
      assertOwnUploadKey(creator.id, key);
      const numbers = new Set(request.body.parts.map((p) => p.PartNumber));
      if (numbers.size !== request.body.parts.length)
        throw badRequest('A part is listed twice.', 'invalid_parts');
      let location: string | undefined;
      try {
        ({ location } = await app.storage.multipart.complete(
          key,
          request.params.uploadId,
          request.body.parts,
        ));
      } catch (err) {
        storeRefusal(err);
      }
      // A part URL cannot hold a part to a size, so the whole is checked once it exists.
      const head = await app.storage.head(key);
      if (head && head.contentLength > KNOWLEDGE_FILE_MAX_BYTES) {
        await app.storage.remove(key).catch(() => {});
        throw knowledgeFileTooLarge();
      }
      return { key, bucket: app.storage.bucket, location: location ?? key };
    },
  );

  r.delete(
    '/api/s3/multipart/:uploadId',
    { schema: { params: z.object({ uploadId: uploadIdSchema }), querystring: keyQuerySchema } },
    async (request) => {
      const creator = await creatorOf(request);
      assertOwnUploadKey(creator.id, request.query.key);
      try {
        await app.storage.multipart.abort(request.query.key, request.params.uploadId);
      } catch (err) {
        if (notImplementedByStore(err)) {
          // The embedded store keeps no such list; the upload is simply never completed.
          request.log.warn({ key: request.query.key }, 'the store cannot abort multipart uploads');
          return {};
        }
        if (s3Error(err).name === 'NoSuchUpload') return {};
        storeRefusal(err);
      }
      return {};
    },
  );
}
