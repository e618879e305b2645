import { IMAGE_SIZE_MESSAGE, imageSizeQuerySchema } from '@fanpilot/contracts';
import type { FastifyInstance } from 'fastify';
import { badRequest, notFound } from '../../errors.ts';
import { readServedImage, readSizedImage } from '../../services/images.ts';

/**
 * Profile images, served from object storage on the apps' origin. Only images under uploads/ are
 * served, typed by their content, so an upload can never become a page of ours. `?size=N` serves
 * it resized to an N-pixel square (the avatar, the app icons), resized once and kept.
 */
export async function objectsRoutes(app: FastifyInstance) {
  app.get<{ Params: { '*': string }; Querystring: Record<string, unknown> }>(
    '/objects/*',
    async (request, reply) => {
      const query = imageSizeQuerySchema.safeParse(request.query ?? {});
      if (!query.success) {
        throw badRequest(IMAGE_SIZE_MESSAGE, 'invalid_image_size');
      }
      let key: string;
      try {
        key = decodeURIComponent(request.params['*']);
      } catch {
        throw notFound('No such image.');
      }
      const size = query.data.size;
      const image = size
        ? await readSizedImage(app.storage, key, size)
        : await readServedImage(app.storage, key);
      if (!image) throw notFound('No such image.');
      return (
        reply
          .type(image.mime)
          // A key names one upload for good (a new picture is a new key): a resized copy never changes.
          .header('cache-control', size ? 'public, max-age=86400' : 'public, max-age=3600')
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'")
          .send(image.body)
      );
    },
  );
}
