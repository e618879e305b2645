import type { JobRunner } from '@fanpilot/jobs';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobRunner;
  }
}

/** Decorates the app with the job runner (BullMQ on Redis, or in-process); the caller owns its lifetime. */
export const jobsPlugin = fp(async (app: FastifyInstance, opts: { jobs: JobRunner }) => {
  app.decorate('jobs', opts.jobs);
});
