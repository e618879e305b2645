import { SESSION_COOKIE } from '@fanpilot/contracts';
import {
  chatbotOwnerId,
  creatorIdByUsername,
  fanBindingOf,
  hashToken,
  liveSessionOf,
  sessionIsLive,
} from '@fanpilot/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { LRUCache } from 'lru-cache';
import { boundedCache } from '../services/bounded-cache.ts';
import type { ChangeFeed } from '../services/changes.ts';
import { fanCookieOf, headerFanToken } from '../services/fan-identity.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The signed-in session's creator id and username, from memory while the change feed is heard. */
    sessionOf: (request: FastifyRequest) => Promise<SessionLite | null>;
    /** A creator's id by username (any case), cached while the change feed is heard. */
    creatorIdOf: (username: string) => Promise<string | null>;
    /**
     * A creator's fan row (id, bound browser) by fan id, cached while the change feed is heard;
     * `fresh` reads the database (a refusal made from memory is checked there before it stands:
     * the feed's word of a transfer may still be on its way).
     */
    fanOf: (creatorId: string, fanKey: string, options?: { fresh?: boolean }) => Promise<FanLite | null>;
    /** A chatbot's creator id (a chatbot never changes owner); null for no such chatbot. */
    chatbotOwnerOf: (chatbotId: string) => Promise<string | null>;
    /** The hash of a signed cookie's value (as the token hashes are stored), null when unsigned or absent. */
    signedCookieHash: (request: FastifyRequest, name: string) => string | null;
    /** Forgets a session at once in this process (sign-out); other processes hear it from the feed. */
    forgetSession: (request: FastifyRequest) => void;
    /**
     * The same lookups from memory only, for the hot path (an unchanged poll answered without a
     * promise): null when there is certainly none (no signed cookie), undefined when memory does not
     * know (ask the async lookup).
     */
    known: {
      session: (request: FastifyRequest) => SessionLite | null | undefined;
      creatorId: (username: string) => string | undefined;
      fan: (creatorId: string, fanKey: string) => FanLite | undefined;
      chatbotOwner: (chatbotId: string) => string | undefined;
    };
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

/**
 * What requests ask for again and again, kept in this api instance's memory: sessions, creators by
 * username, fans, chatbot owners, each dropped when the change feed says it changed (and all of
 * them when the feed is lost or regained); and signed cookies' hashes (checking a signature and
 * hashing cost more than the rest of an unchanged poll). Needs `app.changes`.
 */
export const lookupsPlugin = fp(async (app: FastifyInstance) => {
  const feed: ChangeFeed = app.changes;
  const sessions = boundedCache<string, SessionLite>(50_000);
  const creatorIds = boundedCache<string, string>(50_000);
  const fans = boundedCache<string, FanLite>(200_000);
  // Fan row id -> cache key, bounded like the fans themselves.
  const fanKeys = boundedCache<string, string>(200_000);
  const chatbotOwners = boundedCache<string, string>(50_000);
  // By the cookie's name, then its value as sent (no key made per request: record 0095); refused
  // cookies are remembered too (null).
  const cookieHashes = new Map<string, LRUCache<string, { hash: string | null }>>();
  const cookieHashesOf = (name: string) => {
    let byValue = cookieHashes.get(name);
    if (!byValue) {
      byValue = boundedCache<string, { hash: string | null }>(100_000);
      cookieHashes.set(name, byValue);
    }
    return byValue;
  };

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

  const signedCookieHash = (request: FastifyRequest, name: string): string | null => {
    const raw = request.cookies[name];
    if (!raw) return null;
    const byValue = cookieHashesOf(name);
    const known = byValue.get(raw);
    if (known) return known.hash;
    const unsigned = request.unsignCookie(raw);
    const hash = unsigned.valid && unsigned.value ? hashToken(unsigned.value) : null;
    byValue.set(raw, { hash });
    return hash;
  };
  app.decorate('signedCookieHash', signedCookieHash);

  const knownSession = (request: FastifyRequest): SessionLite | null | undefined => {
    const hash = signedCookieHash(request, SESSION_COOKIE);
    if (!hash) return null;
    const cached = sessions.get(hash);
    return cached && cached.expiresAt > Date.now() ? cached : undefined;
  };
  app.decorate('known', {
    session: knownSession,
    creatorId: (username: string) => creatorIds.get(username.toLowerCase()),
    fan: (creatorId: string, fanKey: string) => fans.get(`${creatorId}:${fanKey}`),
    chatbotOwner: (chatbotId: string) => chatbotOwners.get(chatbotId),
  });

  app.decorate('sessionOf', async (request: FastifyRequest) => {
    const known = knownSession(request);
    if (known !== undefined) return known;
    const hash = signedCookieHash(request, SESSION_COOKIE);
    if (!hash) return null;
    const cached = sessions.get(hash);
    if (cached && sessionIsLive(cached)) return cached;
    const epoch = feed.currentEpoch;
    const row = await liveSessionOf(app.db, hash);
    if (!row) return null;
    const lite = {
      hash,
      creatorId: row.creatorId,
      username: row.username,
      expiresAt: row.expiresAt.getTime(),
    };
    if (feed.isLive && epoch === feed.currentEpoch) sessions.set(hash, lite);
    return lite;
  });

  app.decorate('forgetSession', (request: FastifyRequest) => {
    const hash = signedCookieHash(request, SESSION_COOKIE);
    if (hash) sessions.delete(hash);
  });

  app.decorate('creatorIdOf', async (username: string) => {
    const name = username.toLowerCase();
    const cached = creatorIds.get(name);
    if (cached) return cached;
    const epoch = feed.currentEpoch;
    const id = await creatorIdByUsername(app.db, name);
    if (!id) return null;
    if (feed.isLive && epoch === feed.currentEpoch) creatorIds.set(name, id);
    return id;
  });

  app.decorate('fanOf', async (creatorId: string, fanKey: string, options?: { fresh?: boolean }) => {
    const key = `${creatorId}:${fanKey}`;
    const cached = options?.fresh ? undefined : fans.get(key);
    if (cached) return cached;
    const epoch = feed.currentEpoch;
    const lite = await fanBindingOf(app.db, creatorId, fanKey);
    if (!lite) return null;
    if (feed.isLive && epoch === feed.currentEpoch) {
      fans.set(key, lite);
      fanKeys.set(lite.id, key);
    }
    return lite;
  });

  app.decorate('chatbotOwnerOf', async (chatbotId: string) => {
    const cached = chatbotOwners.get(chatbotId);
    if (cached) return cached;
    const owner = await chatbotOwnerId(app.db, chatbotId);
    if (!owner) return null;
    chatbotOwners.set(chatbotId, owner);
    return owner;
  });
});

/**
 * The hash of this browser's fan token (as fanTokenHash): an embed's header token, else the fan
 * cookie's (the widget frame's partitioned one on its calls) from the instance's cookie cache.
 */
export const cachedFanTokenHash = (request: FastifyRequest): string | null => {
  const fromHeader = headerFanToken(request);
  return fromHeader ? hashToken(fromHeader) : request.server.signedCookieHash(request, fanCookieOf(request));
};
