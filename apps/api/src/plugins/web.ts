import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { creatorsRepository } from '@fanpilot/core';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface WebRoots {
  /** Built apps/dashboard (served at /). */
  dashboard?: string | undefined;
  /** Built apps/fan-pwa (its assets under /fan/). */
  fan?: string | undefined;
}

export interface WebOptions {
  /**
   * Username /fanchat-mobile and /mobile-chat chat with when the address names none
   * (FANCHAT_DEFAULT_CREATOR); unset: the creator who finished onboarding first.
   */
  defaultCreator?: string | undefined;
}

const FAN_ROUTES = /^\/(pwa\/[^/]+\/?|fanchat-mobile\/?|mobile-chat\/?)$/;
/** The fan chat pages that take their creator from `?creator=` (docs/product.md#addresses). */
const CREATOR_QUERY_ROUTES = /^\/(fanchat-mobile|mobile-chat)\/?$/;
const API_LIKE = /^\/(api|auth|objects|healthz|readyz)(\/|$)/;
/**
 * The dashboard app's own routes (apps/dashboard/src/router.tsx; docs/product.md#screens-and-addresses): /, /creator-signup,
 * /dashboard/{username?} and /admin/{username?}. Case-insensitive, as the client router matches.
 * Any other page is its not-found page, answered with status 404.
 */
const DASHBOARD_ROUTES = /^\/(creator-signup\/?|(dashboard|admin)(\/[^/]+)?\/?)?$/i;

/**
 * Serves the built web apps on the api's origin: static files, and each app's index.html for its
 * client-side routes. Index pages are never cached, so a new build is picked up on reload.
 */
export async function webPlugin(app: FastifyInstance, roots: WebRoots, options: WebOptions = {}) {
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
      // The build writes .br and .gz beside each asset (vite.precompress.ts); they are sent as they
      // are to browsers that accept them.
      preCompressed: true,
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
      preCompressed: true,
      decorateReply: false,
      setHeaders: (res, file) => {
        if (file.includes(`${path.sep}assets${path.sep}`))
          res.header('cache-control', 'public, max-age=31536000, immutable');
        // The service worker may control the fan routes at the origin's root (sent as it is or
        // precompressed: later build steps compress it too).
        if (/sw\.js(\.br|\.gz)?$/.test(file)) res.header('service-worker-allowed', '/');
      },
    });
  }

  const sendIndex = (reply: FastifyReply, file: string, status = 200) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(readFileSync(file));

  const configuredCreator = options.defaultCreator?.trim() || undefined;
  const defaultCreator = async (request: FastifyRequest) => {
    if (configuredCreator) return configuredCreator;
    try {
      return await creatorsRepository(app.db).earliestOnboardedUsername();
    } catch (err) {
      request.log.warn({ err }, 'default fan chat creator: lookup failed; serving the page without one');
      return undefined;
    }
  };

  /**
   * docs/product.md#addresses: the fan chat targets a fixed creator. A visit to /fanchat-mobile or /mobile-chat without
   * `?creator=` is sent (302) to the same page with the default creator added, other parameters
   * kept; with no default creator at all the page is served as it is.
   */
  const fanChatPage = async (request: FastifyRequest, reply: FastifyReply, pathname: string, fan: string) => {
    const query = request.url.slice(pathname.length + 1);
    if (new URLSearchParams(query).get('creator')?.trim()) return sendIndex(reply, fan);
    const username = await defaultCreator(request);
    if (!username) return sendIndex(reply, fan);
    const others = query.split('&').filter((part) => part && queryKey(part) !== 'creator');
    const location = `${pathname}?${[`creator=${encodeURIComponent(username)}`, ...others].join('&')}`;
    return reply.header('cache-control', 'no-store').redirect(location, 302);
  };

  /** Chooses the page for a client-side route; null when this is not a page request. */
  return function pageFor(request: FastifyRequest, reply: FastifyReply) {
    if (request.method !== 'GET' && request.method !== 'HEAD') return null;
    const pathname = request.url.split('?')[0] ?? '/';
    if (API_LIKE.test(pathname)) return null;
    if (CREATOR_QUERY_ROUTES.test(pathname) && indexes.fan) {
      return fanChatPage(request, reply, pathname, indexes.fan);
    }
    if (FAN_ROUTES.test(pathname) && indexes.fan) return sendIndex(reply, indexes.fan);
    // Any other path: the dashboard app shows its not-found page ('404 Page Not Found'), and the
    // status says so too, so crawlers and link checkers see a missing page.
    if (indexes.dashboard) {
      return sendIndex(reply, indexes.dashboard, DASHBOARD_ROUTES.test(pathname) ? 200 : 404);
    }
    return null;
  };
}

/** The decoded name of one `name=value` part of a query string. */
function queryKey(part: string): string {
  const name = part.split('=')[0] ?? '';
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
