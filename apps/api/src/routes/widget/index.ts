import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { calls, usernameParamsSchema, WIDGET_SITE_HEADER } from '@fanpilot/contracts';
import {
  creatorsRepository,
  hashToken,
  openWidgetChat,
  reachableCreator,
  saveWidgetSettings,
  widgetConfigFor,
  widgetSettingsForCreator,
  widgetSettingsOf,
} from '@fanpilot/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ensureFanToken } from '../../services/fan-identity.ts';

export interface WidgetRoutesOptions {
  /** The built fan app (its widget.js loader and widget.html frame page), when there is one. */
  fanRoot?: string | undefined;
  /** The Content-Security-Policy of every page (plugins/security.ts); the frame page changes frame-ancestors. */
  contentSecurityPolicy: Record<string, string[]>;
}

/** The loader's address, on the product's origin (docs/widget.md). */
export const WIDGET_LOADER_PATH = '/widget.js';
/** The chat frame the loader opens: /widget/{username}?site={the page's origin}. */
export const WIDGET_FRAME_PATH = '/widget/:username';

const policyText = (directives: Record<string, string[]>) =>
  Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join('; ');

/**
 * The website widget (docs/widget.md; docs/decisions/0050-the-website-widget.md): the creator's
 * settings, the launcher's look for an allowed site, the loader script and the chat frame. The frame
 * may be embedded only by the sites the creator lists (CSP frame-ancestors, checked by the browser);
 * what a widget asks is checked against the same list in core (allowedWidgetSite).
 */
export async function widgetRoutes(app: FastifyInstance, opts: WidgetRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const creators = creatorsRepository(app.db);

  r.get(calls.widgetSettings.path, { schema: calls.widgetSettings.schema }, async (request, reply) => {
    const creator = await app.requireOwner(request, request.params.username);
    reply.header('cache-control', 'no-store');
    return widgetSettingsForCreator(app.db, creator.id);
  });

  r.put(
    calls.saveWidgetSettings.path,
    { schema: calls.saveWidgetSettings.schema },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      reply.header('cache-control', 'no-store');
      return saveWidgetSettings(app.db, creator.id, request.body);
    },
  );

  // Read by the loader from the creator's site (a CORS request): its Origin is the site asking.
  // The answer, a refusal included, may be read by that site, so the loader can say why it shows
  // nothing; it carries no cookie and nothing private.
  r.get(
    calls.widgetConfig.path,
    {
      schema: calls.widgetConfig.schema,
      onRequest: async (request, reply) => {
        const origin = request.headers.origin;
        if (typeof origin === 'string' && origin !== 'null') {
          reply.header('access-control-allow-origin', origin);
        }
        reply.header('vary', 'Origin');
        reply.header('cross-origin-resource-policy', 'cross-origin');
      },
    },
    async (request, reply) => {
      const creator = reachableCreator(
        await creators.findByUsername(request.params.username),
        request.params.username,
      );
      const origin = request.headers.origin;
      const config = await widgetConfigFor(app.db, creator, typeof origin === 'string' ? origin : undefined);
      reply.header('cache-control', 'no-cache');
      return config;
    },
  );

  // The frame opening its chat (record 0072): on an allowed site only, it gets its partitioned fan
  // cookie (or keeps the token it sends, where the browser keeps no cookie), an old loader's token
  // is exchanged once, and it learns which conversation this browser holds.
  r.post(calls.openWidgetChat.path, { schema: calls.openWidgetChat.schema }, async (request, reply) => {
    const creator = reachableCreator(
      await creators.findByUsername(request.params.username),
      request.params.username,
    );
    const site = request.headers[WIDGET_SITE_HEADER];
    reply.header('cache-control', 'no-store');
    return openWidgetChat(app.db, creator.id, typeof site === 'string' ? site : undefined, {
      // The site header is there (checked first), so this is the widget's partitioned cookie.
      bindCookie: () => hashToken(ensureFanToken(request, reply, true)),
      legacyHash: request.body.legacyToken ? hashToken(request.body.legacyToken) : null,
    });
  });

  const file = (name: string) => {
    const full = opts.fanRoot && path.join(opts.fanRoot, name);
    return full && existsSync(full) ? full : undefined;
  };
  const loader = file('widget.js');
  const framePage = file('widget.html');

  if (loader) {
    const plain = readFileSync(loader);
    const gzip = existsSync(`${loader}.gz`) ? readFileSync(`${loader}.gz`) : undefined;
    const brotli = existsSync(`${loader}.br`) ? readFileSync(`${loader}.br`) : undefined;
    app.get(
      WIDGET_LOADER_PATH,
      { schema: { hide: true } },
      async (request: FastifyRequest, reply: FastifyReply) => {
        const accepts = String(request.headers['accept-encoding'] ?? '');
        reply
          .type('text/javascript; charset=utf-8')
          // Loaded by <script> on the creator's site: another origin.
          .header('cross-origin-resource-policy', 'cross-origin')
          .header('access-control-allow-origin', '*')
          // Not fingerprinted (the snippet names it): a new build reaches sites within minutes.
          .header('cache-control', 'public, max-age=300')
          .header('vary', 'Accept-Encoding');
        if (brotli && /\bbr\b/.test(accepts)) return reply.header('content-encoding', 'br').send(brotli);
        if (gzip && /\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(gzip);
        return reply.send(plain);
      },
    );
  }

  if (framePage) {
    const html = readFileSync(framePage);
    r.get(
      WIDGET_FRAME_PATH,
      { schema: { params: usernameParamsSchema, hide: true } },
      async (request, reply) => {
        const creator = await creators.findByUsername(request.params.username);
        // Only the creator's sites may frame the chat; an unknown creator's page frames nowhere (it
        // says the creator could not be found, like the fan app).
        const sites = creator?.onboarding_complete ? (await widgetSettingsOf(app.db, creator.id)).sites : [];
        const directives = {
          ...opts.contentSecurityPolicy,
          'frame-ancestors': sites.length > 0 ? sites : ["'none'"],
        };
        reply.removeHeader('x-frame-options');
        return reply
          .type('text/html; charset=utf-8')
          .header('content-security-policy', policyText(directives))
          .header('cache-control', 'no-cache')
          .send(html);
      },
    );
  }
}
