import { createHash } from 'node:crypto';
import { isUuid } from '@fanpilot/contracts';
import { mayFollowAsFan } from '@fanpilot/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ChangeScope } from '../services/changes.ts';
import { cachedFanTokenHash } from './lookups.ts';

/** What a versioned GET depends on; null when it cannot be told cheaply (the route runs as usual). */
export type VersionedBy = (
  request: FastifyRequest,
  app: FastifyInstance,
) => Promise<readonly (readonly [ChangeScope, string])[] | null>;

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
  const bare = tag.replace(/^W\//, '');
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === bare || t === '*');
}

/**
 * Conditional GETs: a route's `versionedBy` names the scopes its answer depends on; their versions
 * (the change feed's, `app.changes`) make the validator. Needs `app.changes`.
 */
export const conditionalGetPlugin = fp(async (app: FastifyInstance) => {
  // Versioned GETs: the validator is worked out before the route reads anything, so data that
  // changes while it reads makes the next poll a full answer, never a stale 304. It runs first
  // (onRequest, on the raw parameters): an unchanged poll skips validation, rate limits and the
  // route. Parameters a route would refuse never match a validator it handed out.
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const versionedBy = request.routeOptions.config?.versionedBy;
    if (!versionedBy || request.method !== 'GET') return;
    const scopes = await versionedBy(request, app);
    if (!scopes) return;
    const versions = await app.changes.versionsOf(scopes);
    const bucket = Math.floor(Date.now() / TIME_BUCKET_MS);
    const digest = createHash('sha256')
      // The address too: a validator stands for this answer only, not for another call's.
      .update(`${request.url}|${scopes.map(([s, id], i) => `${s}:${id}:${versions[i]}`).join('|')}|${bucket}`)
      .digest('base64url')
      .slice(0, 22);
    const tag = `W/"${digest}"`;
    request.etag = tag;
    if (matches(request.headers['if-none-match'], tag)) {
      // Before the security headers are set: a 304 carries no document for them to apply to.
      return reply
        .code(304)
        .header('etag', tag)
        .header('cache-control', 'private, no-cache')
        .header('vary', 'Cookie')
        .send();
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.etag && reply.statusCode === 200) {
      reply
        .header('etag', request.etag)
        .header('cache-control', 'private, no-cache')
        .header('vary', 'Cookie');
    }
    return payload;
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

/** A dashboard GET: the signed-in creator's own inbox, when `username` (param or ?creator=) is theirs. */
export const byOwnInbox =
  (pick: (request: FastifyRequest) => unknown): VersionedBy =>
  async (request, app) => {
    const username = plain(pick(request));
    const session = await app.sessionOf(request);
    if (!session || !username || session.username?.toLowerCase() !== username.toLowerCase()) return null;
    return [['c', session.creatorId]];
  };

export const ownInboxByParam = byOwnInbox((r) => (r.params as { username?: unknown }).username);
export const ownInboxByQuery = byOwnInbox((r) => (r.query as { creator?: unknown }).creator);

/** A creator's public face (profile card, status, notice) by username. */
export const publicFaceByParam: VersionedBy = async (request, app) => {
  const username = plain((request.params as { username?: unknown }).username);
  const id = username ? await app.creatorIdOf(username) : null;
  return id ? [['p', id]] : null;
};

/** A fan's own chat read by the browser it belongs to (?creator= given): the conversation and the creator's face. */
export const fanChatByParam: VersionedBy = async (request, app) => {
  const fanKey = plain((request.params as { fanId?: unknown }).fanId);
  const username = plain((request.query as { creator?: unknown }).creator);
  const cookieHash = cachedFanTokenHash(request);
  if (!fanKey || !username || !cookieHash) return null;
  const creatorId = await app.creatorIdOf(username);
  if (!creatorId) return null;
  const fan = await app.fanOf(creatorId, fanKey);
  // The chat log's own rule, as a fan (a signed-in creator's read of it is left to the route).
  if (!fan || !mayFollowAsFan(cookieHash, fan)) return null;
  return [
    ['f', fan.id],
    ['p', creatorId],
  ];
};

/** A dashboard GET of the signed-in creator's own chatbot (:id); a chatbot never changes owner. */
export const ownChatbotByParam: VersionedBy = async (request, app) => {
  const id = plain((request.params as { id?: unknown }).id);
  const session = await app.sessionOf(request);
  if (!session || !id || !isUuid(id)) return null;
  const owner = await app.chatbotOwnerOf(id);
  return owner !== null && owner === session.creatorId ? [['c', session.creatorId]] : null;
};
