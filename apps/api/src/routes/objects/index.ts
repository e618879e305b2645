import type { FastifyInstance } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { notFound } from '../../errors.ts';
import { IMAGE_TYPES } from '../../services/images.ts';

const MAX_SERVED_BYTES = 10 * 1024 * 1024;

/**
 * Profile images, served from object storage on the apps' origin. Only images under uploads/ are
 * served, typed by their content, so an upload can never become a page of ours.
 */
export async function objectsRoutes(app: FastifyInstance) {
  app.get<{ Params: { '*': string } }>('/objects/*', async (request, reply) => {
    let key: string;
    try {
      key = decodeURIComponent(request.params['*']);
    } catch {
      throw notFound('No such image.');
    }
    if (!key.startsWith('uploads/') || key.includes('..')) throw notFound('No such image.');
    const head = await app.storage.head(key);
    if (!head || head.contentLength > MAX_SERVED_BYTES) throw notFound('No such image.');
    const object = await app.storage.get(key);
    if (!object) throw notFound('No such image.');
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(Buffer.from(chunk as Uint8Array));
    const body = Buffer.concat(chunks);
    const type = await fileTypeFromBuffer(body);
    if (!type || !IMAGE_TYPES.has(type.mime)) throw notFound('No such image.');
    return reply
      .type(type.mime)
      .header('cache-control', 'public, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'")
      .send(body);
  });
}
