import { type CallDefinition, calls } from '@fanpilot/contracts';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** Where the reference lives: the page, and the document it reads. */
export const DOCS_PREFIX = '/api/docs';
export const OPENAPI_PATH = `${DOCS_PREFIX}/openapi.json`;

const byRoute = new Map<string, CallDefinition>(
  Object.values(calls).map((call) => [`${call.method} ${call.path}`, call as CallDefinition]),
);

/**
 * The OpenAPI 3.1 document of every /api call, generated from the routes as they are registered
 * (their schemas are packages/contracts' `calls`), served as JSON at /api/docs/openapi.json and as
 * a browsable reference (Swagger UI) at /api/docs. Other routes (sign-in, pages) are left out.
 */
export const docsPlugin = fp(async (app: FastifyInstance, opts: { version: string }) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Fanpilot API',
        version: opts.version,
        description:
          'The calls the creator dashboard and the fan app make. Creator calls need the `fp_session` cookie ' +
          '(sign in at /auth/google); fan calls carry the `fp_fan` cookie the api sets. Errors answer ' +
          '`{ error, message }` with a 4xx or 5xx status. See docs/api.md for what a schema cannot say.',
      },
      components: {
        securitySchemes: {
          creatorSession: { type: 'apiKey', in: 'cookie', name: 'fp_session' },
          fanCookie: { type: 'apiKey', in: 'cookie', name: 'fp_fan' },
        },
      },
    },
    transform: (input) => {
      const { url, route } = input;
      const method = [route.method].flat()[0] ?? 'GET';
      const call = byRoute.get(`${method} ${url}`);
      if (!url.startsWith('/api/') || url.startsWith(DOCS_PREFIX) || !call) {
        return { schema: { ...input.schema, hide: true }, url };
      }
      const transformed = jsonSchemaTransform(input);
      return {
        ...transformed,
        schema: { ...transformed.schema, summary: call.summary, tags: [call.tag] },
      };
    },
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX, staticCSP: false });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
});
