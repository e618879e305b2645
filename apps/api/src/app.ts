import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { loadVapidKeys, type VapidKeys } from '@fanpilot/background';
import type { ErrorBody } from '@fanpilot/contracts';
import type { DbHandle } from '@fanpilot/db';
import type { JobRunner } from '@fanpilot/jobs';
import type { IngestEnv } from '@fanpilot/knowledge';
import { loadIngestEnv } from '@fanpilot/knowledge';
import { type Mailer, mailModeOf } from '@fanpilot/mail';
import cookie from '@fastify/cookie';
import Fastify, {
  type FastifyInstance,
  type FastifyServerOptions,
  LogController,
  type RouteOptions,
} from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { RuntimeConfig } from './config.ts';
import { loggerOptions, redactUrl, requestLogLevel } from './logging.ts';
import { changesPlugin } from './plugins/changes.ts';
import { cleanInputPlugin, frameworkErrors, MAX_PARAM_LENGTH } from './plugins/clean-input.ts';
import { dbPlugin } from './plugins/db.ts';
import { docsPlugin } from './plugins/docs.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { jobsPlugin } from './plugins/jobs.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { contentSecurityPolicy, securityPlugin } from './plugins/security.ts';
import { sessionPlugin } from './plugins/session.ts';
import { type Storage, storagePlugin } from './plugins/storage.ts';
import { type WebRoots, webPlugin } from './plugins/web.ts';
import { answersRoutes } from './routes/answers/index.ts';
import { authRoutes } from './routes/auth/index.ts';
import { billingRoutes } from './routes/billing/index.ts';
import { chatbotsRoutes } from './routes/chatbots/index.ts';
import { citationsRoutes } from './routes/citations/index.ts';
import { creatorsRoutes } from './routes/creators/index.ts';
import { eventsRoutes } from './routes/events/index.ts';
import { fanChatRoutes } from './routes/fan-chat/index.ts';
import { fanPlansRoutes } from './routes/fan-plans/index.ts';
import { healthRoutes } from './routes/health/index.ts';
import { inboxRoutes } from './routes/inbox/index.ts';
import { insightsRoutes } from './routes/insights/index.ts';
import { knowledgeRoutes } from './routes/knowledge/index.ts';
import { knowledgeGapsRoutes } from './routes/knowledge-gaps/index.ts';
import { memoryRoutes } from './routes/memory/index.ts';
import { messagesRoutes } from './routes/messages/index.ts';
import { notificationRoutes } from './routes/notifications/index.ts';
import { objectsRoutes } from './routes/objects/index.ts';
import { onboardingRoutes } from './routes/onboarding/index.ts';
import { pushRoutes } from './routes/push/index.ts';
import { pwaRoutes } from './routes/pwa/index.ts';
import { statusRoutes } from './routes/status/index.ts';
import { uploadsRoutes } from './routes/uploads/index.ts';
import { widgetRoutes } from './routes/widget/index.ts';
import { createPayments, type Payments } from './services/billing.ts';
import { ChangeFeed } from './services/changes.ts';
import { LiveHub, rightsFromDb } from './services/live.ts';

/** "Try your chatbot" questions a creator may ask a minute (each may call the model, for free). */
const PLAYGROUND_PER_MINUTE = 20;

export interface AppDeps {
  config: RuntimeConfig;
  db: DbHandle;
  storage: Storage;
  jobs: JobRunner;
  web?: WebRoots;
  logger?: FastifyServerOptions['logger'];
  /** Ingest limits and YouTube origin; parsed from process.env when not given. */
  ingest?: IngestEnv;
  /** Sees every route as it is registered (the fuzz test enumerates the api this way). */
  onRoute?: (route: RouteOptions) => void;
  /** Connection timeouts (SERVER_TIMEOUTS unless a test shortens them). */
  timeouts?: Partial<ServerTimeouts>;
  /** The Web Push key pair; loaded from the environment or DATA_DIR when not given. */
  vapid?: VapidKeys;
  /** How credits are paid for; from STRIPE_* when not given (tests pass a loopback Stripe). */
  payments?: Payments;
  /** Where mail goes (SMTP_URL, the local outbox, or off); from the environment when not given. */
  mailer?: Mailer;
}

export interface ServerTimeouts {
  /** The whole request (headers and body) must arrive within this. */
  requestMs: number;
  /** The request's headers must arrive within this. */
  headersMs: number;
  /** A connection that sends or receives nothing for this long is closed. */
  idleMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveMs: number;
  /** How often Node checks requestMs and headersMs. */
  checkIntervalMs: number;
}

/**
 * A 10 MB knowledge file (the largest body the api reads) from a phone at 35 KB/s (about 280 kbit/s)
 * arrives within the 5 minutes; headers within 20 s; a connection silent for 30 s is closed.
 */
export const SERVER_TIMEOUTS: ServerTimeouts = {
  requestMs: 300_000,
  headersMs: 20_000,
  idleMs: 30_000,
  keepAliveMs: 5_000,
  checkIntervalMs: 5_000,
};

export const defaultWebRoots = (): WebRoots => ({
  dashboard: fileURLToPath(new URL('../../dashboard/dist', import.meta.url)),
  fan: fileURLToPath(new URL('../../fan-pwa/dist', import.meta.url)),
});

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const secure = deps.config.publicOrigin.startsWith('https://');
  const timeouts = { ...SERVER_TIMEOUTS, ...deps.timeouts };
  // An unchanged poll is answered before Fastify builds a request once the change feed's plugin is
  // registered (conditional-get.ts, record 0095); everything else goes to Fastify.
  let pollShortcut: FastifyInstance['pollShortcut'] | undefined;
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(deps.config.env),
    // Slow clients are cut off: 408 (or a closed socket) once a request takes longer than allowed.
    serverFactory: (handler) => {
      const server = createServer(
        {
          requestTimeout: timeouts.requestMs,
          headersTimeout: timeouts.headersMs,
          keepAliveTimeout: timeouts.keepAliveMs,
          connectionsCheckingInterval: timeouts.checkIntervalMs,
        },
        (req, res) => {
          if (pollShortcut?.(req, res)) return;
          handler(req, res);
        },
      );
      server.timeout = timeouts.idleMs;
      return server;
    },
    // X-Forwarded-* only from the proxies TRUST_PROXY names; unset, from nobody.
    trustProxy: deps.config.env.TRUST_PROXY.length > 0 ? deps.config.env.TRUST_PROXY.join(',') : false,
    bodyLimit: 1024 * 1024,
    genReqId: () => crypto.randomUUID(),
    // One line per request, written by the onResponse hook below at the level it deserves.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: 'x-request-id',
    frameworkErrors,
    // Each route's schema bounds its own parameters (an S3 upload id runs past Fastify's default 100).
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
  });
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);
  // Callback hooks on every request (no promise each); the line is only built when it is written.
  app.addHook('onResponse', (request, reply, done) => {
    const level = requestLogLevel(request.method, reply.statusCode);
    // pino's level check (a logger without one writes every line).
    const log = request.log as typeof request.log & { isLevelEnabled?: (level: string) => boolean };
    if (log.isLevelEnabled?.(level) !== false) {
      const ms = Math.round(reply.elapsedTime);
      request.log[level](
        { req: request, res: { statusCode: reply.statusCode }, responseTime: ms },
        `${request.method} ${redactUrl(request.url)} ${reply.statusCode} (${ms} ms)`,
      );
    }
    done();
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // JSON as Fastify parses it (prototype poisoning refused, malformed JSON a 400 invalid_json), but
  // an empty body sent with `Content-Type: application/json` is no body at all: clients send the
  // header on every call, also DELETE /api/knowledge/{id} or POST /api/objects/upload (no payload).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
  // A route that needs a body and got none validates `{}`, so it answers its own words (e.g.
  // 'Please enter a chatbot name') rather than "expected object".
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && request.routeOptions.schema?.body) request.body = {};
  });

  await app.register(errorsPlugin);
  await app.register(cookie, { secret: deps.config.sessionSecret });
  // The change feed: validators for unchanged polls, caches of sessions and fans, live events.
  // First after the cookies, so an unchanged poll is answered before anything else runs.
  const feed = new ChangeFeed(deps.db.db, deps.db, { log: app.log });
  await feed.start();
  app.addHook('onClose', () => feed.close());
  await app.register(changesPlugin, { feed });
  pollShortcut = app.pollShortcut;
  // Pre-signed URLs point at the object store: pages may load images from it and send uploads to it.
  const storeOrigin = new URL(await deps.storage.presignPut('uploads/csp-probe')).origin;
  const security = {
    publicOrigin: deps.config.publicOrigin,
    sameHostOrigin: !deps.config.env.PUBLIC_ORIGIN,
    storeOrigins: storeOrigin === deps.config.publicOrigin ? [] : [storeOrigin],
    extensionOrigins: deps.config.env.EXTENSION_ORIGINS,
  };
  await app.register(securityPlugin, security);
  // One rule for text in paths, queries, bodies and cookies (after the cookies are parsed).
  await app.register(cleanInputPlugin);
  await app.register(dbPlugin, { handle: deps.db });
  // Every stream lasts as long as its right: checked on each change to it and every heartbeat.
  const hub = new LiveHub(feed, {
    check: rightsFromDb(deps.db.db),
    maxLifetimeMs: deps.config.env.LIVE_STREAM_MAX_SECONDS * 1000,
    perAddress: deps.config.env.LIVE_STREAMS_PER_IP,
    perProcess: deps.config.env.LIVE_STREAMS_PER_PROCESS,
    log: app.log,
  });
  // Streams end first when shutting down, so the server can close (clients reconnect elsewhere).
  app.addHook('preClose', async () => hub.close());
  await app.register(storagePlugin, { storage: deps.storage });
  await app.register(jobsPlugin, { jobs: deps.jobs });
  await app.register(sessionPlugin, { secure });
  await app.register(rateLimitPlugin, {
    redisUrl: deps.config.env.REDIS_URL,
    nameSpace: `${deps.config.env.JOBS_PREFIX}-rl:`,
  });

  // Shutting down, the answers to requests still in flight close their connections, so that a
  // keep-alive client (or a proxy) does not hold the process open until its idle timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('x-request-id', reply.request.id);
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  await app.register(docsPlugin, { version: '1.0.0' });
  await app.register(healthRoutes);
  await app.register(authRoutes, {
    issuer: deps.config.oauth.issuer,
    clientId: deps.config.oauth.clientId,
    clientSecret: deps.config.oauth.clientSecret,
    publicOrigin: deps.config.env.PUBLIC_ORIGIN ? deps.config.publicOrigin : undefined,
    secure,
  });
  await app.register(onboardingRoutes);
  await app.register(creatorsRoutes);
  await app.register(objectsRoutes);
  await app.register(fanChatRoutes, {
    secureCookie: secure,
    publicOrigin: deps.config.publicOrigin,
    askLimits: {
      perFan: deps.config.env.ASK_RATE_LIMIT_PER_FAN,
      perIp: deps.config.env.ASK_RATE_LIMIT_PER_IP,
      windowSeconds: deps.config.env.ASK_RATE_LIMIT_WINDOW_SECONDS,
    },
    fanReadsPerIpPerMinute: deps.config.env.FAN_READ_RATE_LIMIT_PER_IP,
    newFans: {
      perIp: deps.config.env.NEW_FANS_PER_IP,
      windowSeconds: deps.config.env.NEW_FANS_WINDOW_SECONDS,
    },
  });
  await app.register(messagesRoutes);
  await app.register(inboxRoutes);
  await app.register(eventsRoutes, {
    hub,
    fanReadsPerIpPerMinute: deps.config.env.FAN_READ_RATE_LIMIT_PER_IP,
  });
  await app.register(statusRoutes);
  await app.register(chatbotsRoutes);
  await app.register(knowledgeRoutes, { ingest: deps.ingest ?? loadIngestEnv(process.env) });
  await app.register(knowledgeGapsRoutes, { env: deps.config.env });
  await app.register(insightsRoutes, { env: deps.config.env });
  await app.register(answersRoutes, {
    env: deps.config.env,
    playgroundPerMinute: PLAYGROUND_PER_MINUTE,
    fanReadsPerIpPerMinute: deps.config.env.FAN_READ_RATE_LIMIT_PER_IP,
  });
  await app.register(memoryRoutes, { env: deps.config.env });
  await app.register(citationsRoutes, {
    sessionSecret: deps.config.sessionSecret,
    fanReadsPerIpPerMinute: deps.config.env.FAN_READ_RATE_LIMIT_PER_IP,
  });
  const payments = deps.payments ?? createPayments(deps.config.env);
  await app.register(billingRoutes, { payments, publicOrigin: deps.config.publicOrigin });
  await app.register(fanPlansRoutes, {
    payments,
    mailer: deps.mailer ?? { mode: mailModeOf(deps.config.env) },
    publicOrigin: deps.config.publicOrigin,
    secureCookie: secure,
    fanReadsPerIpPerMinute: deps.config.env.FAN_READ_RATE_LIMIT_PER_IP,
  });
  await app.register(pushRoutes, {
    vapid: deps.vapid ?? loadVapidKeys(deps.config.env, deps.config.publicOrigin),
    allowedHosts: deps.config.env.PUSH_ALLOWED_HOSTS,
    subscribeLimits: {
      perIp: deps.config.env.PUSH_SUBSCRIBE_RATE_LIMIT_PER_IP,
      perFan: deps.config.env.PUSH_SUBSCRIBE_RATE_LIMIT_PER_FAN,
    },
  });
  await app.register(notificationRoutes, {
    sessionSecret: deps.config.sessionSecret,
    allowedHosts: deps.config.env.PUSH_ALLOWED_HOSTS,
  });
  await app.register(pwaRoutes);
  await app.register(uploadsRoutes);
  await app.register(widgetRoutes, {
    fanRoot: deps.web?.fan,
    contentSecurityPolicy: contentSecurityPolicy(security),
  });

  const pageFor = await webPlugin(app, deps.web ?? {}, {
    defaultCreator: deps.config.env.FANCHAT_DEFAULT_CREATOR,
  });
  app.setNotFoundHandler((request, reply) => {
    const sent = pageFor(request, reply);
    if (sent) return sent;
    return reply.code(404).send({
      error: 'not_found',
      message: `No route for ${request.method} ${request.url.split('?')[0]}`,
    } satisfies ErrorBody);
  });
  return app;
}
