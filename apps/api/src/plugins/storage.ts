import type { Storage } from '@fanpilot/storage';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export type { Storage };

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage;
  }
}

export const storagePlugin = fp(async (app: FastifyInstance, opts: { storage: Storage }) => {
  app.decorate('storage', opts.storage);
});
