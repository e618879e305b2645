import { pingDatabase } from '@fanpilot/core';
import type { FastifyInstance } from 'fastify';

/** A probe that neither hangs nor throws: 'ok', or 'failing' after an error or `ms`. */
const probe = (work: () => Promise<unknown>, ms = 2000) =>
  new Promise<'ok' | 'failing'>((resolve) => {
    const timer = setTimeout(() => resolve('failing'), ms);
    work().then(
      () => {
        clearTimeout(timer);
        resolve('ok');
      },
      () => {
        clearTimeout(timer);
        resolve('failing');
      },
    );
  });

export async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', async () => ({ status: 'ok' }));

  // Readiness: the database, the object store and, when jobs go through it, Redis.
  app.get('/readyz', async (_request, reply) => {
    const [database, storage, redis] = await Promise.all([
      probe(() => pingDatabase(app.db)),
      probe(() => app.storage.ping()),
      app.jobs.mode === 'redis' ? probe(() => app.jobs.ping()) : undefined,
    ]);
    const checks: Record<string, 'ok' | 'failing'> = { database, storage, ...(redis ? { redis } : {}) };
    const ready = Object.values(checks).every((c) => c === 'ok');
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks });
  });
}
