import { calls } from '@fanpilot/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notFound } from '../../errors.ts';
import { openCitedDocument } from '../../services/knowledge.ts';

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
  r.get(calls.citedDocument.path, { schema: calls.citedDocument.schema }, async (request, reply) => {
    const document = await openCitedDocument(app.db, app.storage, request.params.id);
    if (!document.found) throw notFound('No such document.');
    const { object, name, type } = document;
    if (!object) throw notFound('This document is no longer available.');
    reply
      .type(type === 'text/plain' ? 'text/plain; charset=utf-8' : type)
      .header('content-disposition', inline(name))
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=300');
    if (object.contentLength !== undefined) reply.header('content-length', String(object.contentLength));
    return reply.send(object.body);
  });
}
