import { usernameParamsSchema, webAppManifestSchema } from '@fanpilot/contracts';
import { chatbotsRepository, creatorsRepository, reachableCreator } from '@fanpilot/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { toCreator } from '../../serializers.ts';
import { webManifestFor } from '../../services/webManifest.ts';

/** The fan app's per-creator web app manifest; the pages themselves come from the web plugin. */
export async function pwaRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/pwa/:username/manifest.webmanifest',
    { schema: { params: usernameParamsSchema, response: { 200: webAppManifestSchema } } },
    async (request, reply) => {
      const row = reachableCreator(
        await creatorsRepository(app.db).findByUsername(request.params.username),
        request.params.username,
        'This creator could not be found.',
      );
      const chatbot = await chatbotsRepository(app.db).findByCreator(row.id);
      reply.type('application/manifest+json; charset=utf-8').header('cache-control', 'no-cache');
      return webManifestFor({ ...toCreator(row), chatbotName: chatbot?.name ?? null });
    },
  );
}
