import { hash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isUuid } from '@fanpilot/contracts';
import { mayFollowAsFan } from '@fanpilot/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import { redactUrl } from '../logging.ts';
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
  interface FastifyInstance {
    /**
     * An unchanged poll answered before Fastify builds a request (record 0095); false when it is
     * Fastify's to answer (nothing written).
     */
    pollShortcut: (req: IncomingMessage, res: ServerResponse) => boolean;
    /**
     * Versioned GETs' 200 answers (record 0086), the latest per address, each with what its
     * validator is made of (the scopes, their versions, the time bucket): a poll finds its answer,
     * validator included, without making a key or hashing anything (record 0095).
     */
    answerCache: LRUCache<string, CachedAnswer>;
    /**
     * Reads of a versioned GET under way, by address (record 0096): a request for the same address
     * under the same validator waits for the first one's answer and replays it rather than reading
     * again. `waiting` counts the requests waiting now.
     */
    readsUnderWay: { readonly size: number; readonly waiting: number };
  }
  interface FastifyContextConfig {
    /** Answer unchanged polls with 304: the scopes this GET's answer depends on. */
    versionedBy?: VersionedBy;
  }
  interface FastifyRequest {
    etag?: string;
    /** What the validator is made of (kept with the answer). */
    validatedBy?: Validated;
    /** The answer was replayed from the answer cache (it is not stored again). */
    replayed?: boolean;
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

/** What a validator is made of, besides the address. */
interface Validated {
  scopes: Scopes;
  versions: string[];
  bucket: number;
}

/** Whether an answer kept under `kept` is the one these scopes' versions in this bucket stand for. */
const sameValidated = (kept: Validated, scopes: Scopes, versions: string[], bucket: number): boolean => {
  if (kept.bucket !== bucket || kept.scopes.length !== scopes.length) return false;
  for (let i = 0; i < scopes.length; i++) {
    // Mostly the very same strings (ids and versions held in memory): compared by reference first.
    if (kept.scopes[i]![0] !== scopes[i]![0] || kept.scopes[i]![1] !== scopes[i]![1]) return false;
    if (kept.versions[i] !== versions[i]) return false;
  }
  return true;
};

/** A versioned GET's 200 answer, kept by its address with what its validator is made of. */
export interface CachedAnswer extends Validated {
  /** Its validator (the ETag). */
  tag: string;
  body: Buffer;
  type: string;
  /** The answer's own headers (the security headers among them), replayed with it. */
  headers: Record<string, string | string[]>;
  /**
   * The header of a replay but its length and request id, as name, value, name, value…: written as
   * it is (record 0095). Made on the first replay.
   */
  head?: string[];
}

/** Headers of one exchange, not of the answer: never replayed. */
const PER_EXCHANGE = new Set([
  'content-type',
  'content-length',
  'etag',
  'cache-control',
  'vary',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'set-cookie',
  'x-request-id',
]);

/** Methods whose answer waits for the change feed to catch up with the write (read your own writes). */
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A client that asks for a fresh answer (Cache-Control: no-cache, as a hard reload sends). */
const wantsFresh = (headers: FastifyRequest['headers']) => {
  const wants = headers['cache-control'];
  return wants !== undefined && /no-cache|no-store/i.test(wants);
};

/** The answer cache's bound: the bodies' bytes (record 0086). */
export const ANSWER_CACHE_BYTES = 32 * 1024 * 1024;
/** The shortcut's routed addresses: at most this many bytes of them (record 0095). */
const ROUTED_BYTES = 8 * 1024 * 1024;
/** A longer address is left to Fastify every time (polls' addresses are short). */
const ROUTED_MAX_URL = 1024;
/** An answer larger than this is not kept (a page of a big inbox is read again). */
const ANSWER_CACHE_MAX_ENTRY_BYTES = 512 * 1024;

/**
 * Conditional GETs: a route's `versionedBy` names the scopes its answer depends on; their versions
 * (the change feed's, `app.changes`) make the validator. Needs `app.changes`.
 */
export const conditionalGetPlugin = fp(async (app: FastifyInstance) => {
  /**
   * The 200 answers of versioned GETs by validator (record 0086). A validator names the address
   * (query included), the versions of every scope the answer depends on and the 15-minute bucket,
   * and is worked out before the route reads: an answer kept under it is at least as new as the
   * versions it names, so a poll without If-None-Match whose data did not change is answered from
   * here, as cheaply as a 304. Only a requester the route's own rule admits computes a validator.
   */
  const answers = new LRUCache<string, CachedAnswer>({
    maxSize: ANSWER_CACHE_BYTES,
    // Keyed by the address: its length counts too (an address may run to 8 KB).
    sizeCalculation: (entry, url) => Math.max(1, entry.body.length + url.length),
  });
  app.decorate('answerCache', answers);

  // Shutting down, answers go through Fastify's reply, whose hook closes the connection.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  /**
   * An unchanged poll's answer, written straight to the response (record 0095): the header the
   * route's answer had (its security headers among them), the validator's, and the request id.
   */
  const writeReplay = (
    res: ServerResponse,
    requestId: string,
    status: 200 | 304,
    tag: string,
    kept?: CachedAnswer,
  ) => {
    if (status === 304) {
      res.writeHead(304, [
        'cache-control',
        NOT_MODIFIED_HEADERS['cache-control'],
        'vary',
        NOT_MODIFIED_HEADERS.vary,
        'etag',
        tag,
        'x-request-id',
        requestId,
      ]);
      res.end();
      return;
    }
    const answer = kept!;
    answer.head ??= [
      ...Object.entries(answer.headers).flatMap(([name, value]) =>
        Array.isArray(value) ? value.flatMap((v) => [name, v]) : [name, value],
      ),
      'content-type',
      answer.type,
      'cache-control',
      NOT_MODIFIED_HEADERS['cache-control'],
      'vary',
      NOT_MODIFIED_HEADERS.vary,
      'etag',
      answer.tag,
    ];
    const head = answer.head.slice();
    head.push('content-length', String(answer.body.length), 'x-request-id', requestId);
    res.writeHead(200, head);
    res.end(answer.body);
  };

  /**
   * What a versioned GET's validator is, and how to answer it: 304 when the client holds it, the kept
   * answer when there is one (and the client did not ask for a fresh one), else the route ('route').
   */
  const decide = (url: string, headers: FastifyRequest['headers'], scopes: Scopes, versions: string[]) => {
    const bucket = Math.floor(Date.now() / TIME_BUCKET_MS);
    const latest = answers.get(url);
    const kept = latest && sameValidated(latest, scopes, versions, bucket) ? latest : undefined;
    let tag = kept?.tag;
    if (!tag) {
      // The address too: a validator stands for this answer only, not for another call's.
      let key = `${url}|`;
      for (let i = 0; i < scopes.length; i++) key += `${scopes[i]![0]}:${scopes[i]![1]}:${versions[i]}|`;
      tag = `W/"${hash('sha256', `${key}${bucket}`, 'base64url').slice(0, 22)}"`;
    }
    const validated: Validated = { scopes, versions, bucket };
    if (matches(headers['if-none-match'], tag)) return { how: 304 as const, tag, validated };
    // A client that asks for a fresh answer gets the route's, which is kept again.
    if (!kept || wantsFresh(headers)) {
      return { how: 'route' as const, tag, validated };
    }
    return { how: 200 as const, tag, validated, kept };
  };

  /**
   * The first read of an address under a validator, while it is under way (record 0096): when the
   * data of a polled address changes, every client polling it misses at once (a creator's public
   * face polled by thousands of fans, a dashboard's lists after a new message). One reads; the others
   * with the same validator wait for its answer and are answered from the cache, as the next poll
   * would be. An entry lives as long as its request (removed when the response closes), so the map
   * holds at most one entry per open connection.
   */
  const underWay = new Map<string, { validated: Validated; done: Promise<void> }>();
  let waiting = 0;
  app.decorate('readsUnderWay', {
    get size() {
      return underWay.size;
    },
    get waiting() {
      return waiting;
    },
  });
  /**
   * Answers from the validator when it can (304 or the kept answer); else, when the same address is
   * being read under the same validator, waits for that read and answers as it would then; else the
   * route reads (`done`), and others may wait for it.
   */
  const answerOrRead = (
    request: FastifyRequest,
    reply: FastifyReply,
    scopes: Scopes,
    versions: string[],
    done: (err?: Error) => void,
  ): void => {
    if (answer(request, reply, scopes, versions)) return;
    const url = request.url;
    const validated = request.validatedBy!;
    const first = underWay.get(url);
    if (first && !wantsFresh(request.headers)) {
      if (sameValidated(first.validated, scopes, versions, validated.bucket)) {
        waiting++;
        // The first read's promise only resolves (when its response closes).
        void first.done.then(() => {
          waiting--;
          let sent: boolean;
          try {
            sent = answer(request, reply, scopes, versions);
          } catch (err) {
            return done(err as Error);
          }
          // Its answer is kept now (unless it could not be: then this one reads too).
          if (!sent) done();
        });
        return;
      }
    }
    if (!first && !closing) {
      let finished!: () => void;
      const entry = { validated, done: new Promise<void>((resolve) => (finished = resolve)) };
      underWay.set(url, entry);
      // 'close' comes once the answer is written (after onSend kept it) or the client went away.
      reply.raw.once('close', () => {
        if (underWay.get(url) === entry) underWay.delete(url);
        finished();
      });
    }
    done();
  };

  /** Sets the validator; answers 304 (and says so) when the client holds it, else from the cache. */
  const answer = (
    request: FastifyRequest,
    reply: FastifyReply,
    scopes: Scopes,
    versions: string[],
  ): boolean => {
    const d = decide(request.url, request.headers, scopes, versions);
    request.etag = d.tag;
    request.validatedBy = d.validated;
    if (d.how === 'route') return false;
    if (d.how === 200) request.replayed = true;
    if (!closing && !reply.sent) {
      // Past the reply's pipeline (its onSend hooks would set the same headers again, one by one);
      // Fastify still hears the response end (its onResponse hooks, the request's log line).
      reply.hijack();
      writeReplay(reply.raw, request.id, d.how, d.tag, d.kept);
    } else if (d.how === 304) {
      // Before the security headers are set: a 304 carries no document for them to apply to.
      reply.code(304).headers(NOT_MODIFIED_HEADERS).header('etag', d.tag).send();
    } else {
      // The same answer the route gave under this validator; onSend sets the validator headers.
      reply.headers(d.kept.headers);
      reply.code(200).type(d.kept.type).send(d.kept.body);
    }
    return true;
  };

  /**
   * The versioned routes by address, as Fastify matched them (a route's match is a function of the
   * method and the address): what the shortcut needs to work out a validator before Fastify runs.
   */
  const routed = new LRUCache<string, { versionedBy: VersionedBy; params: unknown; query: unknown }>({
    maxSize: ROUTED_BYTES,
    sizeCalculation: (_route, url) => url.length + 200,
  });
  /** Remembered once the route's rule admitted the requester (a refused request leaves nothing). */
  const remember = (request: FastifyRequest, versionedBy: VersionedBy) => {
    if (request.url.length <= ROUTED_MAX_URL && !routed.has(request.url)) {
      routed.set(request.url, { versionedBy, params: request.params, query: request.query });
    }
  };
  /** Lookups the shortcut leaves to the route: it answers from memory only. */
  const notInMemory = () => Promise.resolve(null);
  const memoryOnly = {
    known: app.known,
    changes: app.changes,
    signedCookieHash: app.signedCookieHash,
    sessionOf: notInMemory,
    creatorIdOf: notInMemory,
    fanOf: notInMemory,
    chatbotOwnerOf: notInMemory,
  } as unknown as FastifyInstance;
  const debugLines = () =>
    (app.log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('debug') !== false;

  /**
   * The unchanged poll's shortcut (record 0095), before Fastify builds a request: for a GET of an
   * address Fastify already routed to a versioned route, the same validator from memory (the same
   * `versionedBy`, the same cookie lookups) and, when it holds, the 304 or the kept answer written at
   * once. Anything it cannot tell from memory (a lookup to read, a version not heard, no kept
   * answer, the server closing) goes to Fastify as before: it returns false having written nothing.
   */
  const shortcut = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET' || closing || req.url === undefined) return false;
    const route = routed.get(req.url);
    if (!route) return false;
    const cookieHeader = req.headers.cookie;
    const request = {
      url: req.url,
      method: 'GET',
      params: route.params,
      query: route.query,
      headers: req.headers,
      cookies: cookieHeader ? app.parseCookie(cookieHeader) : {},
      unsignCookie: app.unsignCookie,
      server: app,
    } as unknown as FastifyRequest;
    let scopes: ReturnType<VersionedBy>;
    try {
      scopes = route.versionedBy(request, memoryOnly);
    } catch {
      return false;
    }
    if (!scopes || scopes instanceof Promise) return false;
    const versions = app.changes.knownVersions(scopes);
    if (!versions) return false;
    const d = decide(req.url, req.headers, scopes, versions);
    if (d.how === 'route') return false;
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && given ? given : randomUUID();
    writeReplay(res, requestId, d.how, d.tag, d.kept);
    if (debugLines()) {
      // What the logger's `req` serializer reads (logging.ts), as plain values: the peer's address
      // as the socket has it (a proxy's X-Forwarded-For is Fastify's to read).
      const logged = {
        method: 'GET',
        url: req.url,
        host: req.headers.host,
        ip: req.socket?.remoteAddress,
        socket: { remotePort: req.socket?.remotePort },
      };
      app.log.debug(
        { reqId: requestId, req: logged, res: { statusCode: d.how }, responseTime: 0 },
        `GET ${redactUrl(req.url)} ${d.how} (0 ms)`,
      );
    }
    return true;
  };
  app.decorate('pollShortcut', shortcut);

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
      remember(request, versionedBy);
      const versions = app.changes.knownVersions(scopes);
      if (versions) return answerOrRead(request, reply, scopes, versions, done);
    }
    const pending = scopes;
    (async () => {
      const s = await pending;
      if (!s) return null;
      remember(request, versionedBy);
      return { s, versions: await app.changes.versionsOf(s) };
    })().then(
      (found) => {
        if (!found) return done();
        try {
          answerOrRead(request, reply, found.s, found.versions, done);
        } catch (err) {
          // Thrown before it answered or called `done` (never after): the request's error.
          done(err as Error);
        }
      },
      (err: Error) => done(err),
    );
  });
  // Read your own writes: the answer to a write waits until this process has heard the changes
  // committed before it, so the writer's next poll (a list refetched after a delete) gets a
  // validator past its write, never an answer kept from before it (the change feed's fence).
  // A callback hook: a GET (every poll) passes through without a promise.
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    if (!WRITES.has(request.method) || reply.statusCode >= 400) return done(null, payload);
    app.changes.caughtUp().then(() => done(null, payload));
  });
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    if (request.etag && reply.statusCode === 200) {
      reply.headers(NOT_MODIFIED_HEADERS).header('etag', request.etag);
      // Kept for the next poll without a validator: a whole body (not a stream), of a reply that
      // sets no cookie (nothing of one requester's own is replayed to another).
      if (
        !request.replayed &&
        (typeof payload === 'string' || Buffer.isBuffer(payload)) &&
        payload.length <= ANSWER_CACHE_MAX_ENTRY_BYTES &&
        !reply.hasHeader('set-cookie')
      ) {
        const type = reply.getHeader('content-type');
        if (typeof type === 'string') {
          const headers: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(reply.getHeaders())) {
            if (PER_EXCHANGE.has(name) || value === undefined) continue;
            headers[name] = Array.isArray(value) ? value : String(value);
          }
          // Kept encoded: a replay writes the bytes, not the string again (profiled: the string's
          // encoding was the replay's largest cost).
          const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
          if (request.validatedBy) {
            answers.set(request.url, { ...request.validatedBy, tag: request.etag, body, type, headers });
          }
        }
      }
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
