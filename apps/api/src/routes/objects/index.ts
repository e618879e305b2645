import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors.ts';
import { readServedImage } from '../../services/images.ts';

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
    const image = await readServedImage(app.storage, key);
    if (!image) throw notFound('No such image.');
    return reply
      .type(image.mime)
      .header('cache-control', 'public, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'")
      .send(image.body);
  });
}
