import type { Database, DbHandle } from '@fanpilot/db';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dbHandle: DbHandle;
  }
}

/** Decorates the app with the database; the caller owns the handle's lifetime. */
export const dbPlugin = fp(async (app: FastifyInstance, opts: { handle: DbHandle }) => {
  app.decorate('dbHandle', opts.handle);
  app.decorate('db', opts.handle.db);
});
