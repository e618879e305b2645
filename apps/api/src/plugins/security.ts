import { FAN_TOKEN_HEADER, fanRoutes, routes } from '@fanpilot/contracts';
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../errors.ts';

export interface SecurityOptions {
  /** The product's own origin (PUBLIC_ORIGIN or the local default). */
  publicOrigin: string;
  /**
   * Also accept an Origin naming the host the request was sent to (PUBLIC_ORIGIN unset: the local
   * default, where the same server is reached as localhost or 127.0.0.1).
   */
  sameHostOrigin?: boolean;
  /** Origins browsers load from and send to besides ours: the object store's, for pre-signed URLs. */
  storeOrigins: string[];
  /**
   * The browser extension's origins (EXTENSION_ORIGINS): accepted only for fan calls (packages/contracts
   * `fanRoutes`, the only calls the extension makes) that carry a fan token header, which a
   * cookie-driven forgery cannot add (docs/decisions/0052-the-browser-extension.md, 0071). A creator's
   * call from the extension's Origin is cross-site like any other.
   */
  extensionOrigins?: string[];
}

/**
 * The Content-Security-Policy of every page and api answer: scripts only from our origin (no inline
 * script), images and uploads also to the object store, the fan app's service worker and manifest
 * from our origin, no framing. Styles allow inline `style` attributes (React and the upload widget
 * set them); no script can.
 */
export function contentSecurityPolicy(options: SecurityOptions): Record<string, string[]> {
  const store = options.storeOrigins;
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...store],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...store],
    'media-src': ["'self'", 'blob:', ...store],
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'frame-src': ["'none'"],
    'frame-ancestors': ["'none'"],
  };
  if (options.publicOrigin.startsWith('https://')) directives['upgrade-insecure-requests'] = [];
  return directives;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The fan calls that change data, as `METHOD path` in Fastify's syntax (the matched route's). */
const FAN_WRITES = new Set(
  Object.values(fanRoutes)
    .filter((route) => STATE_CHANGING.has(route.method))
    .map((route) => `${route.method} ${route.path}`),
);

/** Whether the request matched one of the fan calls that change data (never a creator's call). */
const isFanWrite = (request: FastifyRequest) =>
  FAN_WRITES.has(`${request.method} ${request.routeOptions.url ?? ''}`);

/**
 * Security headers on every answer (@fastify/helmet) and the Origin check of every state-changing
 * request, under /api and outside it alike (the local test checkout's form, anything later under
 * /auth or /billing): a browser request from another site (its Origin, or Sec-Fetch-Site:
 * cross-site when it sends no Origin) is refused with 403 bad_origin. Clients that send neither
 * (curl, servers such as Stripe's webhook) pass.
 */
export const securityPlugin = fp(async (app: FastifyInstance, opts: SecurityOptions) => {
  const https = opts.publicOrigin.startsWith('https://');
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(opts) },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Only an https origin asks browsers to keep to https.
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // Pre-signed images and the store's answers are cross-origin; nothing here needs isolation.
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    // The sign-in popup (docs/product.md#signing-in) goes to the provider and back; its opener keeps watching it.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  });

  const ONE_CLICK_UNSUBSCRIBE = `${routes.unsubscribeAlerts.path}?`;
  // Reads pass without a promise (a callback hook); a write is checked by checkOrigin.
  app.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
    if (!STATE_CHANGING.has(request.method)) return done();
    try {
      checkOrigin(request);
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
  function checkOrigin(request: FastifyRequest) {
    // One-click unsubscribe (RFC 8058) is POSTed by mail clients from anywhere; its signed link is
    // the whole authority, and all it can do is stop emails.
    if (request.url.startsWith(ONE_CLICK_UNSUBSCRIBE)) return;
    const origin = request.headers.origin;
    const site = request.headers['sec-fetch-site'];
    if (origin !== undefined) {
      if (origin === opts.publicOrigin) return;
      if (
        opts.extensionOrigins?.includes(origin) &&
        typeof request.headers[FAN_TOKEN_HEADER] === 'string' &&
        isFanWrite(request)
      )
        return;
      if (opts.sameHostOrigin && URL.canParse(origin) && new URL(origin).host === request.headers.host)
        return;
      throw new HttpError(
        403,
        'bad_origin',
        `Requests that change data must come from ${opts.publicOrigin}; this one came from ${String(origin).slice(0, 200)}.`,
      );
    }
    if (site === 'cross-site') {
      throw new HttpError(
        403,
        'bad_origin',
        `Requests that change data must come from ${opts.publicOrigin}.`,
      );
    }
  }
});
