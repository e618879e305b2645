import { MIME_BY_KIND } from '@fanpilot/knowledge';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const READY = ['completed', 'active'];

/** Inline with its own name, both as ASCII and exactly (RFC 6266). */
function inline(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * The files behind AI answers' citations: a fan taps a chip and reads the creator's PDF at the
 * cited page (`#page=N`) or the document itself. Only file items that are ready are served; the
 * item id (a random UUID) is what a citation hands out.
 */
export async function publicKnowledgeRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/public/knowledge/:id/file',
    { schema: { params: z.object({ id: z.string().max(100) }) } },
    async (request, reply) => {
      const { id } = request.params;
      const item = UUID.test(id)
        ? await app.db
            .selectFrom('knowledge_items')
            .select(['type', 'status', 'file_key', 'file_name'])
            .where('id', '=', id)
            .executeTakeFirst()
        : undefined;
      if (!item || item.type !== 'file' || !item.file_key || !READY.includes(item.status)) {
        throw notFound('No such document.');
      }
      const object = await app.storage.get(item.file_key);
      if (!object) throw notFound('This document is no longer available.');
      const name = item.file_name ?? 'document';
      const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() as
        | keyof typeof MIME_BY_KIND
        | undefined;
      const type = (extension && MIME_BY_KIND[extension]) || 'application/octet-stream';
      reply
        .type(type === 'text/plain' ? 'text/plain; charset=utf-8' : type)
        .header('content-disposition', inline(name))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'public, max-age=300');
      if (object.contentLength !== undefined) reply.header('content-length', String(object.contentLength));
      return reply.send(object.body);
    },
  );
}
