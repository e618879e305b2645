import {
  calls,
  encodeLiveStart,
  LIVE_STREAMS_PER_DASHBOARD,
  LIVE_STREAMS_PER_FAN,
} from '@fanpilot/contracts';
import { followableConversation, knownCreatorId, mayFollowAsFan, sessionActsFor } from '@fanpilot/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HttpError, unauthorized } from '../../errors.ts';
import { redactUrl, requestLogLevel } from '../../logging.ts';
import { cachedFanTokenHash } from '../../plugins/changes.ts';
import { fanReadLimiter, networkOf } from '../../plugins/rate-limit.ts';
import { type LiveHub, LiveStream } from '../../services/live.ts';

export interface EventsRoutesOptions {
  hub: LiveHub;
  /** Fan chat reads per address per minute: fan streams count against the same brake. */
  fanReadsPerIpPerMinute: number;
}

/** What a refused stream (429) is told to wait: about the time a closed tab's place takes to free. */
export const STREAM_RETRY_AFTER_SECONDS = 30;

/** The security headers an event stream keeps (the others apply to documents only). */
const STREAM_HEADERS = new Set([
  'x-content-type-options',
  'cross-origin-resource-policy',
  'strict-transport-security',
]);

/**
 * Fastify's own listener on a response's end: its closing log line and onResponse hooks. It holds
 * the request, the reply and the request's logger for as long as the response is open (for an event
 * stream, for hours): with multipart's listener, 1.7 KB of heap a stream (record 0091). A stream lets
 * it go and writes its own closing line.
 */
const FASTIFY_RESPONSE_LISTENER = 'onResFinished';

/**
 * Drops Fastify's end-of-response listeners from a hijacked stream and returns the closing line to
 * write when it ends: the same line the api's onResponse hook writes, from a few strings, not the
 * request.
 */
function releaseFromFastify(request: FastifyRequest, reply: FastifyReply): () => void {
  const res = reply.raw;
  for (const event of ['finish', 'error'] as const) {
    for (const listener of res.listeners(event)) {
      if (listener.name === FASTIFY_RESPONSE_LISTENER) res.removeListener(event, listener as () => void);
    }
  }
  const log = request.server.log as FastifyRequest['log'] & { isLevelEnabled?: (level: string) => boolean };
  const level = requestLogLevel(request.method, 200);
  if (log.isLevelEnabled?.(level) === false) return () => {};
  const startedAt = performance.now() - reply.elapsedTime;
  const reqId = request.id;
  // What the logger's `req` serializer reads (logging.ts), as plain values.
  const req = {
    method: request.method,
    url: request.url,
    host: request.host,
    ip: request.ip,
    socket: { remotePort: request.socket.remotePort },
  };
  return () => {
    const ms = Math.round(performance.now() - startedAt);
    log[level](
      { reqId, req, res: { statusCode: 200 }, responseTime: ms },
      `GET ${redactUrl(req.url)} 200 (${ms} ms)`,
    );
  };
}

const tooManyStreams = (message: string) =>
  new HttpError(429, 'too_many_streams', message, { 'retry-after': String(STREAM_RETRY_AFTER_SECONDS) });

/**
 * One event stream per open dashboard (GET /api/events/creators/{username}) and per fan chat
 * (GET /api/events/fans/{fanId}?creator=): messages, answers, status, announcements, knowledge
 * progress and credits as they change, answer drafts as the AI writes them. Polling stays the
 * fallback; a reconnect with Last-Event-ID that missed something gets a 'sync'. A stream lasts as
 * long as its right (the hub checks it again on every change to it and every heartbeat) and at
 * most LIVE_STREAM_MAX_SECONDS; the browser then reconnects and is checked anew.
 */
export async function eventsRoutes(app: FastifyInstance, opts: EventsRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { hub } = opts;

  // The same brake (and counter) as GET /api/chatlog/fan/*.
  const fanReads = fanReadLimiter(app, opts.fanReadsPerIpPerMinute);

  /** A stream's event ids, made outside a handler so they hold its scopes only. */
  const idFor = (scopes: Parameters<LiveHub['idFor']>[0]) => () => hub.idFor(scopes);

  /** The address's and the process's share; asked with nothing awaited before the stream is added. */
  const admit = (request: FastifyRequest) => {
    const refusal = hub.refusal(networkOf(request));
    if (refusal) throw tooManyStreams(refusal.message);
  };

  const open = (
    request: FastifyRequest,
    reply: FastifyReply,
    startId: string,
    idOf: () => string,
    attach: (stream: LiveStream, resync: boolean) => () => void,
  ) => {
    reply.hijack();
    const res = reply.raw;
    const closingLine = releaseFromFastify(request, reply);
    // What only a document obeys (its policy, framing, referrer, …) is not sent with a stream of
    // events: a stream keeps its header for as long as it is open (issue 39: the api's memory with
    // 10,000 streams). Not sniffing it and who may read it stay.
    for (const name of res.getHeaderNames()) {
      if (!STREAM_HEADERS.has(name)) res.removeHeader(name);
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // nginx passes each event on at once.
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    });
    // The stream outlives the server's idle timeout; heartbeats keep proxies from closing it.
    request.raw.socket.setTimeout(0);
    res.write(encodeLiveStart(startId));
    const stream = new LiveStream(res, idOf);
    const last = request.headers['last-event-id'];
    const detach = attach(stream, typeof last === 'string' && last !== startId);
    request.raw.on('close', detach);
    res.once('close', () => {
      detach();
      closingLine();
    });
  };

  r.get(
    calls.dashboardEvents.path,
    { exposeHeadRoute: false, schema: calls.dashboardEvents.schema },
    async (request, reply) => {
      const session = await app.sessionOf(request);
      const creatorId =
        session && session.username?.toLowerCase() === request.params.username.toLowerCase()
          ? session.creatorId
          : (await app.requireOwner(request, request.params.username)).id;
      // The dashboard's rule (packages/core): a valid session of this creator. The stream holds
      // it for as long as that session does.
      if (!session || !sessionActsFor(session, creatorId)) throw unauthorized();
      const scopes = [['c', creatorId]] as const;
      const startId = await hub.startId(scopes);
      if (hub.count('dashboard', creatorId) >= LIVE_STREAMS_PER_DASHBOARD) {
        throw tooManyStreams('Too many open dashboards. Close one and reload.');
      }
      admit(request);
      // The closures below outlive this request (a stream's ids are worked out on each event), so
      // they hold what they need, not the request (its logger, parameters, reply).
      const follow = { address: networkOf(request), sessionId: session.hash };
      open(request, reply, startId, idFor(scopes), (stream, resync) =>
        hub.addDashboard(creatorId, stream, follow, resync, startId),
      );
    },
  );

  r.get(
    calls.fanEvents.path,
    {
      exposeHeadRoute: false,
      onRequest: fanReads,
      schema: calls.fanEvents.schema,
    },
    async (request, reply) => {
      const creatorId = knownCreatorId(await app.creatorIdOf(request.query.creator), request.query.creator);
      const cookieHash = cachedFanTokenHash(request);
      const cached = await app.fanOf(creatorId, request.params.fanId);
      // What memory refuses is read again: a chat moved to this browser a moment ago (its
      // transfer not yet heard from the change feed) opens at once.
      // A chat starts with its first question (until then the fan app polls); the chat log's rule,
      // as a fan: only the browser the conversation is bound to.
      const fan = followableConversation(
        cookieHash,
        mayFollowAsFan(cookieHash, cached)
          ? cached
          : await app.fanOf(creatorId, request.params.fanId, { fresh: true }),
      );
      const scopes = [
        ['f', fan.id],
        ['p', creatorId],
      ] as const;
      const startId = await hub.startId(scopes);
      if (hub.count('fan', fan.id) >= LIVE_STREAMS_PER_FAN) {
        throw tooManyStreams('Too many open chats for this conversation. Close one and reload.');
      }
      admit(request);
      const follow = { address: networkOf(request), cookieHash: fan.cookieHash! };
      const fanId = fan.id;
      open(request, reply, startId, idFor(scopes), (stream, resync) =>
        hub.addFanChat(creatorId, fanId, stream, follow, resync, startId),
      );
    },
  );
}
