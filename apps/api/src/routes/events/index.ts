import { calls, LIVE_STREAMS_PER_DASHBOARD, LIVE_STREAMS_PER_FAN } from '@fanpilot/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { forbidden, HttpError, notFound } from '../../errors.ts';
import { cachedFanTokenHash } from '../../plugins/changes.ts';
import { FAN_FORBIDDEN_MESSAGE } from '../../services/conversations.ts';
import { type LiveHub, LiveStream } from '../../services/live.ts';

/**
 * One event stream per open dashboard (GET /api/events/creators/{username}) and per fan chat
 * (GET /api/events/fans/{fanId}?creator=): messages, answers, status, announcements, knowledge
 * progress and credits as they change, answer drafts as the AI writes them. Polling stays the
 * fallback; a reconnect with Last-Event-ID that missed something gets a 'sync'.
 */
export async function eventsRoutes(app: FastifyInstance, opts: { hub: LiveHub }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { hub } = opts;

  const open = (
    request: FastifyRequest,
    reply: FastifyReply,
    startId: string,
    idOf: () => string,
    attach: (stream: LiveStream) => () => void,
  ) => {
    reply.hijack();
    const res = reply.raw;
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
    res.write(`retry: 3000\nid: ${startId}\n\n`);
    const stream = new LiveStream(res, idOf);
    const detach = attach(stream);
    const last = request.headers['last-event-id'];
    if (typeof last === 'string' && last !== startId) stream.send({ event: 'sync', data: {} });
    request.raw.on('close', detach);
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
      if (hub.count('dashboard', creatorId) >= LIVE_STREAMS_PER_DASHBOARD) {
        throw new HttpError(429, 'too_many_streams', 'Too many open dashboards. Close one and reload.');
      }
      const scopes = [['c', creatorId]] as const;
      const startId = await hub.startId(scopes);
      open(
        request,
        reply,
        startId,
        () => hub.idFor(scopes),
        (stream) => hub.addDashboard(creatorId, stream),
      );
    },
  );

  r.get(
    calls.fanEvents.path,
    {
      exposeHeadRoute: false,
      schema: calls.fanEvents.schema,
    },
    async (request, reply) => {
      const creatorId = await app.creatorIdOf(request.query.creator);
      if (!creatorId) throw notFound(`No creator is called '${request.query.creator}'.`);
      const fan = await app.fanOf(creatorId, request.params.fanId);
      // A chat starts with its first question; until then the fan app polls.
      if (!fan) throw new HttpError(404, 'no_conversation', 'This conversation has no messages yet.');
      const cookieHash = cachedFanTokenHash(request);
      if (!cookieHash || fan.cookieHash !== cookieHash) throw forbidden(FAN_FORBIDDEN_MESSAGE);
      if (hub.count('fan', fan.id) >= LIVE_STREAMS_PER_FAN) {
        throw new HttpError(
          429,
          'too_many_streams',
          'Too many open chats for this conversation. Close one and reload.',
        );
      }
      const scopes = [
        ['f', fan.id],
        ['p', creatorId],
      ] as const;
      const startId = await hub.startId(scopes);
      open(
        request,
        reply,
        startId,
        () => hub.idFor(scopes),
        (stream) => hub.addFanChat(creatorId, fan.id, stream),
      );
    },
  );
}
