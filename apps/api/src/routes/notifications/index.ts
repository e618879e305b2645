import { calls, routes } from '@fanpilot/contracts';
import {
  checkSubscriptionKeys,
  creatorPushSubscriptions,
  notificationSettings,
  readUnsubscribeToken,
  unsubscribeByToken,
  updateNotificationSettings,
} from '@fanpilot/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { checkPushEndpoint } from '../../services/push.ts';

export interface NotificationRoutesOptions {
  /** The secret unsubscribe links are signed with (the session secret). */
  sessionSecret: string;
  /** PUSH_ALLOWED_HOSTS: push services allowed beside the browsers' own. */
  allowedHosts: string[];
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem"><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;

/**
 * The creator's notification settings (Profile Settings), their browsers' alert pushes, and the
 * one-click unsubscribe of every alert and digest email (record 0061): POST (RFC 8058, what a mail
 * client's Unsubscribe button sends) stops the emails; GET, the link in the email's text, shows a
 * page with one button (so a link scanner that follows links stops nothing).
 */
export async function notificationRoutes(app: FastifyInstance, opts: NotificationRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // RFC 8058's POST body is "List-Unsubscribe=One-Click", url-encoded; the token is in the link.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_req, _body, done) => done(null, {}),
  );

  r.get(
    calls.notificationSettings.path,
    { schema: calls.notificationSettings.schema },
    async (request, reply) => {
      const creator = await app.requireOwner(request, request.params.username);
      reply.header('cache-control', 'no-store');
      return notificationSettings(app.db, creator);
    },
  );

  r.put(
    calls.updateNotificationSettings.path,
    { schema: calls.updateNotificationSettings.schema },
    async (request) => {
      const creator = await app.requireOwner(request, request.params.username);
      return updateNotificationSettings(app.db, creator, request.body);
    },
  );

  r.post(calls.creatorPushSubscribe.path, { schema: calls.creatorPushSubscribe.schema }, async (request) => {
    const creator = await app.requireOwner(request, request.params.username);
    const { subscription } = request.body;
    checkSubscriptionKeys(subscription.keys);
    await checkPushEndpoint(subscription.endpoint, opts.allowedHosts);
    const pushDevices = await creatorPushSubscriptions(app.db).save(creator.id, subscription);
    return { success: true as const, pushDevices };
  });

  r.delete(
    calls.creatorPushUnsubscribe.path,
    { schema: calls.creatorPushUnsubscribe.schema },
    async (request) => {
      const creator = await app.requireOwner(request, request.params.username);
      const pushDevices = await creatorPushSubscriptions(app.db).removeByEndpoint(
        creator.id,
        request.body.endpoint,
      );
      return { success: true as const, pushDevices };
    },
  );

  r.post(calls.unsubscribeAlerts.path, { schema: calls.unsubscribeAlerts.schema }, async (request, reply) => {
    const stopped = await unsubscribeByToken(app.db, opts.sessionSecret, request.query.token);
    reply.header('cache-control', 'no-store');
    if (request.headers.accept?.includes('text/html')) {
      reply.type('text/html; charset=utf-8');
      return page(
        'You are unsubscribed',
        `<p>${stopped === 'digest' ? 'The digest email stops.' : 'Alert emails stop.'} Turn them back on any time in Fanpilot: Profile Settings, Notifications.</p>`,
      ) as never;
    }
    return { success: true as const, stopped };
  });

  // The link in the email's text: a page with the one button that unsubscribes.
  r.get(calls.unsubscribePage.path, { schema: calls.unsubscribePage.schema }, async (request, reply) => {
    const { scope } = readUnsubscribeToken(opts.sessionSecret, request.query.token);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    return page(
      scope === 'digest' ? 'Stop the digest email?' : 'Stop alert emails?',
      `<form method="post" action="${escapeHtml(`${routes.unsubscribeAlerts.path}?token=${encodeURIComponent(request.query.token)}`)}"><button type="submit">Unsubscribe</button></form>`,
    );
  });
}
