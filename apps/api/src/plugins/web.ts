import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface WebRoots {
  /** Built apps/dashboard (served at /). */
  dashboard?: string | undefined;
  /** Built apps/fan-pwa (its assets under /fan/). */
  fan?: string | undefined;
}

const FAN_ROUTES = /^\/(pwa\/[^/]+\/?|fanchat-mobile\/?|mobile-chat\/?)$/;
const API_LIKE = /^\/(api|auth|objects|healthz|readyz)(\/|$)/;

/**
 * Serves the built web apps on the api's origin: static files, and each app's index.html for its
 * client-side routes. Index pages are never cached, so a new build is picked up on reload.
 */
export async function webPlugin(app: FastifyInstance, roots: WebRoots) {
  const indexes: { dashboard?: string; fan?: string } = {};
  const load = (root: string | undefined) => {
    const file = root && path.join(root, 'index.html');
    return file && existsSync(file) ? file : undefined;
  };
  indexes.dashboard = load(roots.dashboard);
  indexes.fan = load(roots.fan);

  if (indexes.dashboard && roots.dashboard) {
    await app.register(fastifyStatic, {
      root: roots.dashboard,
      prefix: '/',
      wildcard: false,
      index: false,
      decorateReply: true,
      setHeaders: (res, file) => {
        if (file.includes(`${path.sep}assets${path.sep}`))
          res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  if (indexes.fan && roots.fan) {
    await app.register(fastifyStatic, {
      root: roots.fan,
      prefix: '/fan/',
      wildcard: false,
      index: false,
      decorateReply: false,
      setHeaders: (res, file) => {
        if (file.includes(`${path.sep}assets${path.sep}`))
          res.header('cache-control', 'public, max-age=31536000, immutable');
        // The service worker may control the fan routes at the origin's root.
        if (file.endsWith('sw.js')) res.header('service-worker-allowed', '/');
      },
    });
  }

  const sendIndex = (reply: FastifyReply, file: string) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(readFileSync(file));

  /** Chooses the page for a client-side route; null when this is not a page request. */
  return function pageFor(request: FastifyRequest, reply: FastifyReply) {
    if (request.method !== 'GET' && request.method !== 'HEAD') return null;
    const pathname = request.url.split('?')[0] ?? '/';
    if (API_LIKE.test(pathname)) return null;
    if (FAN_ROUTES.test(pathname) && indexes.fan) return sendIndex(reply, indexes.fan);
    if (indexes.dashboard) return sendIndex(reply, indexes.dashboard);
    return null;
  };
}
