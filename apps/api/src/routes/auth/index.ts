import { calls, type LoginErrorCode } from '@fanpilot/contracts';
import oauthPlugin, { type OAuth2Namespace, type OAuth2Token } from '@fastify/oauth2';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toCurrentUser } from '../../serializers.ts';
import { findOrCreateCreator } from '../../services/accounts.ts';

declare module 'fastify' {
  interface FastifyInstance {
    googleOAuth2: OAuth2Namespace;
  }
}

const POPUP_COOKIE = 'fp_oauth_popup';

export interface AuthRoutesOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Fixed origin for the callback; unset (local use) means the origin the browser used. */
  publicOrigin: string | undefined;
  secure: boolean;
}

/** Where a signed-in creator belongs (docs/product.md#where-a-signed-in-creator-goes, login redirect). */
export const homeFor = (creator: { onboarding_complete: boolean; username: string }) =>
  creator.onboarding_complete ? `/dashboard/${encodeURIComponent(creator.username)}` : '/creator-signup';

const escapeAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The popup closes itself; its opener reloads when it sees the popup gone (docs/product.md#signing-in: checked every
 * second). The script is a file of ours (/auth/popup.js), as the Content-Security-Policy allows no
 * inline script; it reads where to go without an opener from its data attribute.
 */
function popupPage(destination: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signed in</title></head>
<body><p>Signed in. You can close this window.</p>
<script src="/auth/popup.js" data-destination="${escapeAttribute(destination)}"></script>
</body></html>`;
}

const POPUP_SCRIPT = `(function () {
  var script = document.currentScript;
  var destination = (script && script.getAttribute('data-destination')) || '/';
  if (window.opener && !window.opener.closed) { window.close(); } else { location.replace(destination); }
})();
`;

export async function authRoutes(app: FastifyInstance, opts: AuthRoutesOptions) {
  app.get('/auth/popup.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(POPUP_SCRIPT),
  );
  await app.register(oauthPlugin, {
    name: 'googleOAuth2',
    scope: ['openid', 'profile', 'email'],
    credentials: { client: { id: opts.clientId, secret: opts.clientSecret } },
    // Without PUBLIC_ORIGIN, localhost and 127.0.0.1 both work: state cookies stay on one host.
    callbackUri: (request) =>
      `${opts.publicOrigin ?? `${request.protocol}://${request.host}`}/auth/google/callback`,
    discovery: { issuer: opts.issuer },
    pkce: 'S256',
    cookie: { secure: opts.secure, sameSite: 'lax', path: '/', httpOnly: true },
  });

  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/auth/google',
    { schema: { querystring: z.object({ popup: z.string().optional() }) } },
    async (request, reply) => {
      if (request.query.popup === '1' || request.query.popup === 'true') {
        reply.setCookie(POPUP_COOKIE, '1', {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure: opts.secure,
          maxAge: 600,
        });
      } else {
        reply.clearCookie(POPUP_COOKIE, { path: '/' });
      }
      const uri = await app.googleOAuth2.generateAuthorizationUri(request, reply);
      return reply.redirect(uri);
    },
  );

  const fail = (reply: FastifyReply, code: LoginErrorCode, details?: string) => {
    reply.clearCookie(POPUP_COOKIE, { path: '/' });
    const query = new URLSearchParams({ error: code });
    if (details) query.set('details', details.slice(0, 200));
    return reply.redirect(`/?${query}`);
  };

  r.get(
    '/auth/google/callback',
    {
      schema: {
        querystring: z.object({
          code: z.string().max(4096).optional(),
          state: z.string().max(1024).optional(),
          error: z.string().max(200).optional(),
          error_description: z.string().max(1000).optional(),
        }),
      },
    },
    async (request, reply) => {
      const { error, error_description, code, state } = request.query;
      if (error) return fail(reply, 'google_oauth_error', error_description ?? error);
      // Every failure comes back to the landing page, which shows it as a toast (docs/product.md#signing-in).
      if (!code || !state) {
        request.log.warn('sign-in callback without code or state');
        return fail(reply, 'oauth_callback_failed');
      }

      let token: OAuth2Token;
      try {
        token = await app.googleOAuth2.getAccessTokenFromAuthorizationCodeFlow(request, reply);
      } catch (err) {
        // A tampered or replayed state lands here too: nothing is written, the page shows the toast.
        const message = err instanceof Error ? err.message : String(err);
        request.log.warn({ reason: message }, 'oauth token exchange failed');
        return fail(reply, 'oauth_callback_failed');
      }

      let profile: { sub?: unknown; email?: unknown; name?: unknown; picture?: unknown };
      try {
        profile = (await app.googleOAuth2.userinfo(token.token)) as typeof profile;
      } catch (err) {
        request.log.warn({ reason: err instanceof Error ? err.message : String(err) }, 'userinfo failed');
        return fail(reply, 'no_user_returned');
      }
      if (!profile || typeof profile.sub !== 'string' || !profile.sub) return fail(reply, 'no_user_returned');

      let destination: string;
      try {
        const creator = await findOrCreateCreator(app.db, {
          sub: profile.sub,
          email: typeof profile.email === 'string' ? profile.email : '',
          name: typeof profile.name === 'string' && profile.name.trim() ? profile.name.trim() : 'Creator',
        });
        await app.sessions.start(reply, creator.id);
        destination = homeFor(creator);
      } catch (err) {
        request.log.error({ err }, 'login failed');
        return fail(reply, 'login_failed');
      }

      if (request.cookies[POPUP_COOKIE] === '1') {
        reply.clearCookie(POPUP_COOKIE, { path: '/' });
        return (
          reply
            .type('text/html; charset=utf-8')
            .header('cache-control', 'no-store')
            // Back from the provider's origin, the popup keeps its opener (which it closes to tell).
            .header('cross-origin-opener-policy', 'unsafe-none')
            .send(popupPage(destination))
        );
      }
      return reply.redirect(destination);
    },
  );

  r.get('/auth/logout', async (request, reply) => {
    await app.sessions.end(request, reply);
    return reply.redirect('/');
  });

  r.get(calls.currentUser.path, { schema: calls.currentUser.schema }, async (request, reply) => {
    const creator = await app.requireCreator(request);
    reply.header('cache-control', 'no-store');
    return toCurrentUser(creator);
  });
}
