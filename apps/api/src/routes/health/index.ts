import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

export async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    const checks: Record<string, 'ok' | 'failing'> = {};
    await Promise.all([
      sql`select 1`
        .execute(app.db)
        .then(() => {
          checks.database = 'ok';
        })
        .catch(() => {
          checks.database = 'failing';
        }),
      app.storage
        .ping()
        .then(() => {
          checks.storage = 'ok';
        })
        .catch(() => {
          checks.storage = 'failing';
        }),
    ]);
    const ready = Object.values(checks).every((c) => c === 'ok');
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks });
  });
}
