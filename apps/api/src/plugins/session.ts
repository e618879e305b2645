import { randomBytes } from 'node:crypto';
import { SESSION_COOKIE, SESSION_TTL_MS } from '@fanpilot/contracts';
import { actingAs, creatorsRepository, hashToken, sessionsRepository } from '@fanpilot/core';
import type { CreatorRow } from '@fanpilot/db';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { unauthorized } from '../errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    sessions: {
      start: (reply: FastifyReply, creatorId: string) => Promise<void>;
      end: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    };
    /** The signed-in creator, or a 401. */
    requireCreator: (request: FastifyRequest) => Promise<CreatorRow>;
    /** The signed-in creator when `username` is theirs; 401, 404 or 403 otherwise. */
    requireOwner: (request: FastifyRequest, username: string) => Promise<CreatorRow>;
  }
  interface FastifyRequest {
    /** The signed-in creator, null when signed out; loaded once per request. */
    currentCreator: () => Promise<CreatorRow | null>;
  }
}

export const sessionPlugin = fp(async (app: FastifyInstance, opts: { secure: boolean }) => {
  const repo = sessionsRepository(app.db);
  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: opts.secure,
    signed: true,
  };

  const creators = creatorsRepository(app.db);
  const cache = new WeakMap<FastifyRequest, Promise<CreatorRow | null>>();
  app.decorateRequest('currentCreator', function currentCreator(this: FastifyRequest) {
    let pending = cache.get(this);
    if (!pending) {
      pending = (async () => {
        // The session from memory while the change feed is heard; the creator, fresh.
        const session = await app.sessionOf(this);
        if (!session) return null;
        return (await creators.findById(session.creatorId)) ?? null;
      })();
      cache.set(this, pending);
    }
    return pending;
  });

  app.decorate('sessions', {
    async start(reply: FastifyReply, creatorId: string) {
      const token = randomBytes(32).toString('base64url');
      await repo.create(hashToken(token), creatorId, new Date(Date.now() + SESSION_TTL_MS));
      reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, maxAge: Math.floor(SESSION_TTL_MS / 1000) });
    },
    async end(request: FastifyRequest, reply: FastifyReply) {
      app.forgetSession(request);
      const raw = request.cookies[SESSION_COOKIE];
      if (raw) {
        const unsigned = request.unsignCookie(raw);
        if (unsigned.valid && unsigned.value) await repo.remove(hashToken(unsigned.value));
      }
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
    },
  });

  app.decorate('requireCreator', async (request: FastifyRequest) => {
    const creator = await request.currentCreator();
    if (!creator) throw unauthorized();
    return creator;
  });

  app.decorate('requireOwner', async (request: FastifyRequest, username: string) => {
    return actingAs(app.db, await app.requireCreator(request), username);
  });
});
