import { calls, KNOWLEDGE_FILE_MAX_BYTES } from '@fanpilot/contracts';
import { knowledgeFileTooLarge } from '@fanpilot/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { badRequest, HttpError, notFound } from '../../errors.ts';
import {
  assertOwnUploadKey,
  knowledgeFileType,
  newKnowledgeUploadKey,
  UPLOAD_URL_EXPIRES_SECONDS,
} from '../../services/uploads.ts';

/**
 * The upload widget's calls (docs/product.md#sources): the S3 protocol Uppy's @uppy/aws-s3 plugin speaks to
 * a signing server (`companionEndpoint: '/api'`). The browser sends the bytes straight to the store
 * with short-lived pre-signed requests; these calls only create, sign, list, complete and abort.
 * Objects land under knowledge-uploads/{creatorId}/{uuid}/{file name}, and POST
 * /api/chatbots/{id}/knowledge/uploaded then turns one into a knowledge item.
 */

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

export async function uploadsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Signed-in creators only, before anything else is looked at.
  app.addHook('onRequest', async (request) => {
    await app.requireCreator(request);
  });
  const creatorOf = (request: FastifyRequest) => app.requireCreator(request);

  r.get(
    calls.s3Params.path,
    {
      schema: calls.s3Params.schema,
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
  r.get(calls.s3Sts.path, { schema: calls.s3Sts.schema }, async () => {
    throw new HttpError(
      404,
      'not_supported',
      'Temporary storage credentials are not issued; uploads are signed by the server (GET /api/s3/params, POST /api/s3/multipart).',
    );
  });

  r.post(
    calls.s3CreateMultipart.path,
    {
      schema: calls.s3CreateMultipart.schema,
    },
    async (request) => {
      const creator = await creatorOf(request);
      const { mime } = knowledgeFileType(request.body.filename, request.body.type);
      const key = newKnowledgeUploadKey(creator.id, request.body.filename);
      const { uploadId } = await app.storage.multipart.create(key, mime);
      return { key, uploadId };
    },
  );

  r.get(calls.s3ListParts.path, { schema: calls.s3ListParts.schema }, async (request) => {
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
  });

  r.get(
    calls.s3SignPart.path,
    {
      schema: calls.s3SignPart.schema,
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
    calls.s3CompleteMultipart.path,
    {
      schema: calls.s3CompleteMultipart.schema,
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

  r.delete(calls.s3AbortMultipart.path, { schema: calls.s3AbortMultipart.schema }, async (request) => {
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
  });
}
