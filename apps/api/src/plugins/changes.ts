import { createHash } from 'node:crypto';
import { FAN_COOKIE, isUuid, SESSION_COOKIE } from '@fanpilot/contracts';
import { mayActAsFan, sessionIsLive } from '@fanpilot/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { ChangeFeed, ChangeScope } from '../services/changes.ts';

/** What a versioned GET depends on; null when it cannot be told cheaply (the route runs as usual). */
export type VersionedBy = (
  request: FastifyRequest,
  app: FastifyInstance,
) => Promise<readonly (readonly [ChangeScope, string])[] | null>;

declare module 'fastify' {
  interface FastifyInstance {
    changes: ChangeFeed;
    /** The signed-in session's creator id and username, from memory while the change feed is heard. */
    sessionOf: (request: FastifyRequest) => Promise<SessionLite | null>;
    /** A creator's id by username (any case), cached while the change feed is heard. */
    creatorIdOf: (username: string) => Promise<string | null>;
    /** A creator's fan row (id, bound browser) by fan id, cached while the change feed is heard. */
    fanOf: (creatorId: string, fanKey: string) => Promise<FanLite | null>;
    /** Forgets a session at once in this process (sign-out); other processes hear it from the feed. */
    forgetSession: (request: FastifyRequest) => void;
  }
  interface FastifyContextConfig {
    /** Answer unchanged polls with 304: the scopes this GET's answer depends on. */
    versionedBy?: VersionedBy;
  }
  interface FastifyRequest {
    etag?: string;
  }
}

export interface SessionLite {
  hash: string;
  creatorId: string;
  username: string | null;
  expiresAt: number;
}
export interface FanLite {
  id: string;
  creatorId: string;
  cookieHash: string | null;
}

/** Validators also turn over every 15 minutes, so answers that depend on the day ("today") follow it. */
const TIME_BUCKET_MS = 15 * 60_000;

const sessionHash = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * A signed cookie's value, hashed, by the cookie as sent: checking a signature and hashing cost
 * more than the rest of an unchanged poll. Refused cookies are remembered too (null).
 */
const cookieHashes = new LRUCache<string, { hash: string | null }>({ max: 100_000 });
function hashOfSignedCookie(request: FastifyRequest, name: string): string | null {
  const raw = request.cookies[name];
  if (!raw) return null;
  const key = `${name}=${raw}`;
  const known = cookieHashes.get(key);
  if (known) return known.hash;
  const unsigned = request.unsignCookie(raw);
  const hash = unsigned.valid && unsigned.value ? sessionHash(unsigned.value) : null;
  cookieHashes.set(key, { hash });
  return hash;
}

/** The hash of this browser's fan token (as fanTokenHash), from the cache above. */
export const cachedFanTokenHash = (request: FastifyRequest) => hashOfSignedCookie(request, FAN_COOKIE);

/**
 * Whether the browser with this fan cookie (its token's hash) may read and follow this
 * conversation: packages/core's mayActAsFan, as a fan. The 304 shortcut, the fan event stream and
 * the stream's later re-checks all ask this.
 */
export const mayFollowAsFan = (cookieHash: string | null, fan: FanLite | null | undefined): boolean =>
  mayActAsFan(
    { cookieHash, creatorId: null },
    fan ? { creator_id: fan.creatorId, cookie_hash: fan.cookieHash } : null,
    'read',
  );

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
 * Conditional GETs and the caches that make them cheap: sessions, creators by username and fans,
 * each dropped when the change feed says it changed (or when the feed is lost).
 */
export const changesPlugin = fp(async (app: FastifyInstance, opts: { feed: ChangeFeed }) => {
  const feed = opts.feed;
  app.decorate('changes', feed);

  const sessions = new LRUCache<string, SessionLite>({ max: 50_000 });
  const creatorIds = new LRUCache<string, string>({ max: 50_000 });
  const fans = new LRUCache<string, FanLite>({ max: 200_000 });
  // Fan row id -> cache key, bounded like the fans themselves.
  const fanKeys = new LRUCache<string, string>({ max: 200_000 });
  feed.onReset(() => {
    sessions.clear();
    creatorIds.clear();
    fans.clear();
    fanKeys.clear();
  });
  feed.subscribe((change) => {
    if (change.scope === 's') sessions.delete(change.id);
    if (change.scope === 'p' && change.table === 'creators') {
      for (const [hash, s] of sessions.entries()) if (s.creatorId === change.id) sessions.delete(hash);
      for (const [name, id] of creatorIds.entries()) if (id === change.id) creatorIds.delete(name);
    }
    if (change.scope === 'f') {
      const key = fanKeys.get(change.id);
      if (key) fans.delete(key);
      fanKeys.delete(change.id);
    }
  });

  const tokenHash = (request: FastifyRequest): string | null => hashOfSignedCookie(request, SESSION_COOKIE);

  app.decorate('sessionOf', async (request: FastifyRequest) => {
    const hash = tokenHash(request);
    if (!hash) return null;
    const cached = sessions.get(hash);
    if (cached && sessionIsLive(cached)) return cached;
    const epoch = feed.currentEpoch;
    const row = await app.db
      .selectFrom('sessions')
      .innerJoin('creators', 'creators.id', 'sessions.creator_id')
      .select(['creators.id', 'creators.username', 'sessions.expires_at'])
      .where('sessions.id', '=', hash)
      .where('sessions.expires_at', '>', new Date())
      .executeTakeFirst();
    if (!row) return null;
    const lite = {
      hash,
      creatorId: row.id,
      username: row.username,
      expiresAt: new Date(row.expires_at).getTime(),
    };
    if (feed.isLive && epoch === feed.currentEpoch) sessions.set(hash, lite);
    return lite;
  });

  app.decorate('forgetSession', (request: FastifyRequest) => {
    const hash = tokenHash(request);
    if (hash) sessions.delete(hash);
  });

  app.decorate('creatorIdOf', async (username: string) => {
    const name = username.toLowerCase();
    const cached = creatorIds.get(name);
    if (cached) return cached;
    const epoch = feed.currentEpoch;
    const row = await app.db
      .selectFrom('creators')
      .select('id')
      .where(sql<string>`lower(username)`, '=', name)
      .executeTakeFirst();
    if (!row) return null;
    if (feed.isLive && epoch === feed.currentEpoch) creatorIds.set(name, row.id);
    return row.id;
  });

  app.decorate('fanOf', async (creatorId: string, fanKey: string) => {
    const key = `${creatorId}:${fanKey}`;
    const cached = fans.get(key);
    if (cached) return cached;
    const epoch = feed.currentEpoch;
    const row = await app.db
      .selectFrom('fans')
      .select(['id', 'creator_id', 'cookie_hash'])
      .where('creator_id', '=', creatorId)
      .where('fan_key', '=', fanKey)
      .executeTakeFirst();
    if (!row) return null;
    const lite = { id: row.id, creatorId: row.creator_id, cookieHash: row.cookie_hash };
    if (feed.isLive && epoch === feed.currentEpoch) {
      fans.set(key, lite);
      fanKeys.set(row.id, key);
    }
    return lite;
  });

  // Versioned GETs: the validator is worked out before the route reads anything, so data that
  // changes while it reads makes the next poll a full answer, never a stale 304. It runs first
  // (onRequest, on the raw parameters): an unchanged poll skips validation, rate limits and the
  // route. Parameters a route would refuse never match a validator it handed out.
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const versionedBy = request.routeOptions.config?.versionedBy;
    if (!versionedBy || request.method !== 'GET') return;
    const scopes = await versionedBy(request, app);
    if (!scopes) return;
    const versions = await feed.versionsOf(scopes);
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

const chatbotOwners = new LRUCache<string, string>({ max: 50_000 });

/** A dashboard GET of the signed-in creator's own chatbot (:id); a chatbot never changes owner. */
export const ownChatbotByParam: VersionedBy = async (request, app) => {
  const id = plain((request.params as { id?: unknown }).id);
  const session = await app.sessionOf(request);
  if (!session || !id || !isUuid(id)) return null;
  let owner = chatbotOwners.get(id);
  if (!owner) {
    const row = await app.db
      .selectFrom('chatbots')
      .select('creator_id')
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    owner = row.creator_id;
    chatbotOwners.set(id, owner);
  }
  return owner === session.creatorId ? [['c', session.creatorId]] : null;
};
