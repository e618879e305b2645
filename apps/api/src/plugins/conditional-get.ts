import { hash } from 'node:crypto';
import { isUuid } from '@fanpilot/contracts';
import { mayFollowAsFan } from '@fanpilot/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ChangeScope } from '../services/changes.ts';
import { cachedFanTokenHash, type FanLite, type SessionLite } from './lookups.ts';

type Scopes = readonly (readonly [ChangeScope, string])[];

/**
 * What a versioned GET depends on; null when it cannot be told cheaply (the route runs as usual).
 * Answered from memory when it can (no promise: the hot path of an unchanged poll), else a promise.
 */
export type VersionedBy = (
  request: FastifyRequest,
  app: FastifyInstance,
) => Scopes | null | Promise<Scopes | null>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answer unchanged polls with 304: the scopes this GET's answer depends on. */
    versionedBy?: VersionedBy;
  }
  interface FastifyRequest {
    etag?: string;
  }
}

/** Validators also turn over every 15 minutes, so answers that depend on the day ("today") follow it. */
const TIME_BUCKET_MS = 15 * 60_000;

/** Whether an If-None-Match header names this (weak) validator. */
export function matches(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  // What a polling client sends: the tag it was given, as it was given.
  if (header === tag) return true;
  const bare = tag.replace(/^W\//, '');
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === bare || t === '*');
}

const NOT_MODIFIED_HEADERS = { 'cache-control': 'private, no-cache', vary: 'Cookie' };

/**
 * Conditional GETs: a route's `versionedBy` names the scopes its answer depends on; their versions
 * (the change feed's, `app.changes`) make the validator. Needs `app.changes`.
 */
export const conditionalGetPlugin = fp(async (app: FastifyInstance) => {
  /** Sets the validator; answers 304 (and says so) when the client holds it. */
  const answer = (
    request: FastifyRequest,
    reply: FastifyReply,
    scopes: Scopes,
    versions: string[],
  ): boolean => {
    const bucket = Math.floor(Date.now() / TIME_BUCKET_MS);
    let key = `${request.url}|`;
    for (let i = 0; i < scopes.length; i++) key += `${scopes[i]![0]}:${scopes[i]![1]}:${versions[i]}|`;
    // The address too: a validator stands for this answer only, not for another call's.
    const tag = `W/"${hash('sha256', `${key}${bucket}`, 'base64url').slice(0, 22)}"`;
    request.etag = tag;
    if (!matches(request.headers['if-none-match'], tag)) return false;
    // Before the security headers are set: a 304 carries no document for them to apply to.
    reply.code(304).headers(NOT_MODIFIED_HEADERS).header('etag', tag).send();
    return true;
  };

  // Versioned GETs: the validator is worked out before the route reads anything, so data that
  // changes while it reads makes the next poll a full answer, never a stale 304. It runs first
  // (onRequest, on the raw parameters): an unchanged poll skips validation, rate limits and the
  // route. Parameters a route would refuse never match a validator it handed out. A callback hook,
  // answered without a promise when everything it needs is in memory (profiled: docs/performance.md).
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    const versionedBy = request.routeOptions.config?.versionedBy;
    if (!versionedBy || request.method !== 'GET') return done();
    let scopes: ReturnType<VersionedBy>;
    try {
      scopes = versionedBy(request, app);
    } catch (err) {
      return done(err as Error);
    }
    if (scopes === null) return done();
    if (!(scopes instanceof Promise)) {
      const versions = app.changes.knownVersions(scopes);
      if (versions) {
        if (!answer(request, reply, scopes, versions)) done();
        return;
      }
    }
    const pending = scopes;
    (async () => {
      const s = await pending;
      return s ? answer(request, reply, s, await app.changes.versionsOf(s)) : false;
    })().then(
      (sent) => {
        if (!sent) done();
      },
      (err: Error) => done(err),
    );
  });
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    if (request.etag && reply.statusCode === 200) {
      reply.headers(NOT_MODIFIED_HEADERS).header('etag', request.etag);
    }
    done(null, payload);
  });
});

/** packages/core's mayFollowAsFan: the 304 shortcut, the fan event stream and its re-checks ask it. */
export { mayFollowAsFan };

/**
 * A raw parameter the shortcut may use: one plain, short value (these run before validation; a
 * request with anything else simply goes to its route, which refuses it properly).
 */
const PLAIN = /^[A-Za-z0-9_.:-]{1,200}$/;
const plain = (value: unknown): string | undefined =>
  typeof value === 'string' && PLAIN.test(value) ? value : undefined;

/** `then` on a value that may or may not be a promise: no promise made for a value. */
const then = <T, U>(value: T | Promise<T>, next: (v: T) => U | Promise<U>): U | Promise<U> =>
  value instanceof Promise ? value.then(next) : next(value);

/** The signed-in session: from memory when known (null for no signed cookie), else looked up. */
const sessionNow = (request: FastifyRequest, app: FastifyInstance) => {
  const known = app.known.session(request);
  return known !== undefined ? known : app.sessionOf(request);
};

/** A dashboard GET: the signed-in creator's own inbox, when `username` (param or ?creator=) is theirs. */
export const byOwnInbox =
  (pick: (request: FastifyRequest) => unknown): VersionedBy =>
  (request, app) => {
    const username = plain(pick(request));
    if (!username) return null;
    const own = (session: SessionLite | null): Scopes | null =>
      session && session.username?.toLowerCase() === username.toLowerCase()
        ? [['c', session.creatorId]]
        : null;
    return then(sessionNow(request, app), own);
  };

export const ownInboxByParam = byOwnInbox((r) => (r.params as { username?: unknown }).username);
export const ownInboxByQuery = byOwnInbox((r) => (r.query as { creator?: unknown }).creator);

/** A creator's public face (profile card, status, notice) by username. */
export const publicFaceByParam: VersionedBy = (request, app) => {
  const username = plain((request.params as { username?: unknown }).username);
  if (!username) return null;
  return then(app.known.creatorId(username) ?? app.creatorIdOf(username), (id): Scopes | null =>
    id ? [['p', id]] : null,
  );
};

/** A fan's own chat read by the browser it belongs to (?creator= given): the conversation and the creator's face. */
export const fanChatByParam: VersionedBy = (request, app) => {
  const fanKey = plain((request.params as { fanId?: unknown }).fanId);
  const username = plain((request.query as { creator?: unknown }).creator);
  const cookieHash = cachedFanTokenHash(request);
  if (!fanKey || !username || !cookieHash) return null;
  const ofFan =
    (creatorId: string) =>
    (fan: FanLite | null | undefined): Scopes | null =>
      // The chat log's own rule, as a fan (a signed-in creator's read of it is left to the route).
      fan && mayFollowAsFan(cookieHash, fan)
        ? [
            ['f', fan.id],
            ['p', creatorId],
          ]
        : null;
  return then(app.known.creatorId(username) ?? app.creatorIdOf(username), (creatorId) =>
    creatorId
      ? then(app.known.fan(creatorId, fanKey) ?? app.fanOf(creatorId, fanKey), ofFan(creatorId))
      : null,
  );
};

/** A dashboard GET of the signed-in creator's own chatbot (:id); a chatbot never changes owner. */
export const ownChatbotByParam: VersionedBy = (request, app) => {
  const id = plain((request.params as { id?: unknown }).id);
  if (!id || !isUuid(id)) return null;
  return then(sessionNow(request, app), (session) =>
    session
      ? then(app.known.chatbotOwner(id) ?? app.chatbotOwnerOf(id), (owner): Scopes | null =>
          owner !== null && owner === session.creatorId ? [['c', session.creatorId]] : null,
        )
      : null,
  );
};
