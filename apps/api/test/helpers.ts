import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Background, createBackgroundJobs, loadVapidKeys, startBackground } from '@fanpilot/background';
import { createDb, type Database, type DbHandle, migrateToLatest } from '@fanpilot/db';
import type { JobRunner } from '@fanpilot/jobs';
import { loadIngestEnv } from '@fanpilot/knowledge';
import { createMailer, type Mailer } from '@fanpilot/mail';
import { createStorage, type Storage } from '@fanpilot/storage';
import { createTestDatabase } from '@fanpilot/testkit';
import type { FastifyInstance, RouteOptions } from 'fastify';
import getPort from 'get-port';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import { type AppDeps, buildApp } from '../src/app.ts';
import type { RuntimeConfig } from '../src/config.ts';
import {
  type LocalIdentity,
  type LocalOidc,
  type LocalS3,
  startLocalOidc,
  startLocalS3,
} from '../src/embedded.ts';
import { loadEnv } from '../src/env.ts';
import type { WebRoots } from '../src/plugins/web.ts';

/** Leaves the shared test Redis as it was found. */
async function removeRedisKeys(url: string, pattern: string) {
  const redis = new Redis(url);
  try {
    for await (const keys of redis.scanStream({ match: pattern, count: 500 })) {
      if ((keys as string[]).length > 0) await redis.del(...(keys as string[]));
    }
  } finally {
    await redis.quit();
  }
}

/** A free TCP port on loopback. */
export const freePort = (): Promise<number> => getPort({ host: '127.0.0.1' });

export interface TestApp {
  app: FastifyInstance;
  url: string;
  oidc: LocalOidc;
  s3: LocalS3;
  db: DbHandle;
  storage: Storage;
  jobs: JobRunner;
  /** The background runtime; `idle()` resolves once no job is queued or running. */
  background: Background;
  config: RuntimeConfig;
  /** Where the api's mail goes (SMTP_URL in `env`, else the local outbox under its DATA_DIR). */
  mailer: Mailer;
  /** The test database's URL (PostgreSQL only), for a worker process. */
  databaseUrl: string | undefined;
  /** Runs the whole OAuth code flow over HTTP as `identity`; returns the Cookie header of the session. */
  signIn: (identity?: LocalIdentity) => Promise<string>;
  close: () => Promise<void>;
}

export const identity = (name: string): LocalIdentity => ({
  sub: `sub-${name}`,
  name: `${name[0]?.toUpperCase()}${name.slice(1)} Tester`,
  email: `${name}@example.com`,
});

/** Cookies a response sets, as name=value pairs. */
export function setCookies(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const i = pair!.indexOf('=');
    out[pair!.slice(0, i)] = pair!.slice(i + 1);
  }
  return out;
}

export const cookieHeader = (jar: Record<string, string>) =>
  Object.entries(jar)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');

export interface TestAppOptions {
  /** Run the alerts role (creator alerts and digests) with this collecting window and clock. */
  alerts?: { windowMs: number; sweepMs?: number; clock?: () => Date };
  /** Environment of the api (ingest variables included). */
  env?: Record<string, string>;
  /** Jobs on BullMQ at this Redis (isolated by a random prefix); in-process when unset. */
  redisUrl?: string | undefined;
  /** Jobs go to Redis (TEST_REDIS_URL) under this BullMQ prefix, for a worker process to consume. */
  redisPrefix?: string;
  /** Runs the ingest handler inside the api, as server.ts does without Redis. */
  ingestInProcess?: boolean;
  /** The answer handler's database handle, from the app's (fault injection wraps it: withFaults). */
  answeringDb?: (db: Kysely<Database>) => Kysely<Database>;
  /** Built web apps the api serves (directories holding an index.html); none when unset. */
  web?: WebRoots;
  /** Sees every route the api registers. */
  onRoute?: (route: RouteOptions) => void;
  /** Shorter connection timeouts than the server's (slow-client tests). */
  timeouts?: AppDeps['timeouts'];
  /** How credits are paid for (a Stripe client on a loopback Stripe); the local test checkout when unset. */
  payments?: AppDeps['payments'];
  /** The api reaches the test database through this address instead (a proxy the test controls). */
  databaseUrlVia?: (url: string) => Promise<string>;
  /** A second api process on another test app's database (its `databaseUrl`); the first one drops it. */
  joinDatabase?: string;
  /** The api's change feed hears each notice this long after it is sent, in order (a lagging listener). */
  feedLagMs?: number;
}

/** `listen` whose messages arrive `ms` late, in the order they were sent. */
const lagging =
  (listen: DbHandle['listen'], ms: number): DbHandle['listen'] =>
  (channel, onMessage, onState) =>
    listen(channel, (payload) => setTimeout(() => onMessage(payload), ms), onState);

/**
 * The api on a real port, against PostgreSQL (TEST_DATABASE_URL) or PGlite, local S3 and a local
 * OpenID provider, with AI answering started as server.ts starts it. With `redisUrl`, the answer
 * handler consumes the BullMQ queue here, as apps/worker does in production.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fanpilot-api-'));
  const port = await freePort();
  const oidc = await startLocalOidc(identity('alice'));
  const s3 = await startLocalS3({
    directory: path.join(dataDir, 's3'),
    bucket: 'fanpilot-test',
    allowedOrigins: [`http://127.0.0.1:${port}`],
  });
  const prefix = options.redisPrefix ?? `fp-test-${randomBytes(4).toString('hex')}`;
  const env = loadEnv({
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    JOBS_PREFIX: prefix,
    // Every test's requests come from 127.0.0.1: the brakes on fan reads and new fans per address
    // are set high unless a test sets them to exercise them.
    FAN_READ_RATE_LIMIT_PER_IP: '1000000',
    NEW_FANS_PER_IP: '1000000',
    ...options.env,
  });
  const config: RuntimeConfig = {
    env,
    publicOrigin: `http://127.0.0.1:${port}`,
    sessionSecret: 'test-session-secret-0123456789',
    // The loopback provider stands in for Google either way; with GOOGLE_CLIENT_ID set (production
    // tests must set it, as loadEnv demands) it is configured as a real provider would be.
    oauth: {
      issuer: oidc.issuer,
      clientId: env.GOOGLE_CLIENT_ID ?? 'test-client',
      clientSecret: env.GOOGLE_CLIENT_SECRET ?? 'test-secret',
      local: !env.GOOGLE_CLIENT_ID,
    },
    s3: {
      endpoint: s3.endpoint,
      publicEndpoint: s3.endpoint,
      region: 'us-east-1',
      bucket: s3.bucket,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
    },
    stopEmbedded: async () => {},
  };
  const baseUrl = process.env.TEST_DATABASE_URL;
  const fresh = options.joinDatabase
    ? { url: options.joinDatabase, drop: async () => {} }
    : baseUrl
      ? await createTestDatabase(baseUrl)
      : undefined;
  const dbUrl = fresh && options.databaseUrlVia ? await options.databaseUrlVia(fresh.url) : fresh?.url;
  const db = createDb(dbUrl ? { databaseUrl: dbUrl, poolSize: 5 } : { dataDir: 'memory://' });
  await migrateToLatest(db.db);
  const storage = await createStorage(config.s3);
  const redisUrl = options.redisUrl ?? (options.redisPrefix ? process.env.TEST_REDIS_URL : undefined);
  const log = {
    info: (obj: object, msg: string) => app.log.info(obj, msg),
    warn: (obj: object, msg: string) => app.log.warn(obj, msg),
    error: (obj: object, msg: string) => app.log.error(obj, msg),
  };
  const jobs = createBackgroundJobs({
    db: db.db,
    env,
    log,
    // Every queue, answers included, tries 5 times 20 ms apart (not for an hour), then hands over.
    overrides: { redisUrl, prefix, backoffMs: 20, retry: {} },
  });
  const ingestEnv = loadIngestEnv(options.env ?? {});
  // SMTP_URL in `env` (a loopback SMTP server): the real transport; else the outbox under DATA_DIR.
  const mailer = createMailer({ ...env, PUBLIC_ORIGIN: config.publicOrigin });
  const app = await buildApp({
    config,
    db: options.feedLagMs ? { ...db, listen: lagging(db.listen, options.feedLagMs) } : db,
    storage,
    jobs,
    logger: false,
    ingest: ingestEnv,
    ...(options.web ? { web: options.web } : {}),
    ...(options.onRoute ? { onRoute: options.onRoute } : {}),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...(options.payments ? { payments: options.payments } : {}),
    mailer,
  });
  await app.listen({ port, host: '127.0.0.1' });
  // The runtime as server.ts starts it, consuming the answer queue here even with Redis (as
  // apps/worker does in production); the ingest queue only when asked, the timers never.
  const background = await startBackground({
    roles: [
      'relay',
      ...(options.ingestInProcess ? (['ingest'] as const) : []),
      'answer',
      'push',
      'mail',
      ...(options.alerts ? (['alerts'] as const) : []),
      'requeue',
    ],
    db: db.db,
    listen: db.listen,
    env,
    jobs,
    log,
    ingest: { env: ingestEnv, storage, embedder: null },
    push: { vapid: loadVapidKeys(env, config.publicOrigin), allowedHosts: env.PUSH_ALLOWED_HOSTS },
    // Mail is retried 20 ms apart, for a fifth of a second.
    mail: { mailer, retry: { backoffMs: 20, maxBackoffMs: 40, retryForMs: 200 } },
    ...(options.alerts
      ? { alerts: { origin: config.publicOrigin, secret: config.sessionSecret, ...options.alerts } }
      : {}),
    ...(options.answeringDb ? { answerDb: options.answeringDb(db.db) } : {}),
  });
  const url = `http://127.0.0.1:${port}`;

  const signIn = async (who?: LocalIdentity) => {
    if (who) oidc.setIdentity(who);
    const start = await fetch(`${url}/auth/google`, { redirect: 'manual' });
    const jar = setCookies(start);
    const authorize = await fetch(start.headers.get('location')!, { redirect: 'manual' });
    const callback = await fetch(authorize.headers.get('location')!, {
      redirect: 'manual',
      headers: { cookie: cookieHeader(jar) },
    });
    if (callback.status !== 302)
      throw new Error(`callback answered ${callback.status}: ${await callback.text()}`);
    const session = setCookies(callback).fp_session;
    if (!session) throw new Error(`no session cookie; location ${callback.headers.get('location')}`);
    return `fp_session=${session}`;
  };

  return {
    app,
    url,
    oidc,
    s3,
    db,
    storage,
    jobs,
    background,
    config,
    mailer,
    databaseUrl: fresh?.url,
    signIn,
    async close() {
      await app.close();
      await background.close();
      mailer.close();
      if (options.redisUrl) await removeRedisKeys(options.redisUrl, `${prefix}:*`);
      await db.close();
      await fresh?.drop();
      await oidc.stop();
      await s3.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The environment of a production api (NODE_ENV=production): a session secret and a Google client
 * (startTestApp's loopback provider plays Google), since loadEnv refuses production without them.
 */
export const PRODUCTION_ENV: Record<string, string> = {
  NODE_ENV: 'production',
  SESSION_SECRET: 'test-session-secret-0123456789',
  GOOGLE_CLIENT_ID: 'test-client',
  GOOGLE_CLIENT_SECRET: 'test-secret',
};

/** A small valid PNG (1x1), enough for type checks by content. */
export const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Asks for an upload URL and PUTs the bytes there, as the browser does; returns the URL without its query. */
export async function uploadAs(
  t: TestApp,
  cookie: string,
  body: Buffer,
  contentType = 'image/png',
): Promise<string> {
  const res = await fetch(`${t.url}/api/objects/upload`, { method: 'POST', headers: { cookie } });
  if (res.status !== 200) throw new Error(`upload URL: ${res.status} ${await res.text()}`);
  const { uploadURL } = (await res.json()) as { uploadURL: string };
  const put = await fetch(uploadURL, { method: 'PUT', body, headers: { 'content-type': contentType } });
  if (!put.ok) throw new Error(`PUT failed: ${put.status} ${await put.text()}`);
  return uploadURL.split('?')[0]!;
}

export async function json(res: Response) {
  return (await res.json()) as Record<string, unknown> & { error?: string; message?: string };
}

/** A call as a signed-in browser makes it: the session cookie, and a JSON body when given. */
export const send = (t: TestApp, method: string, path: string, cookie: string, body?: unknown) =>
  fetch(`${t.url}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** Signs `name` in and completes onboarding (chatbot, 1,000 free credits): the session and the ids. */
export async function onboardedCreator(t: TestApp, name: string) {
  const cookie = await t.signIn(identity(name));
  const image = await uploadAs(t, cookie, PNG_1PX);
  const res = await send(t, 'POST', '/api/creator-signup', cookie, {
    chatbotName: `${name} bot`,
    profileImageUrl: image,
  });
  if (res.status !== 200) throw new Error(`onboarding ${name}: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { creator: { id: string; username: string }; chatbot: { id: string } };
  return { cookie, creatorId: body.creator.id, username: body.creator.username, chatbotId: body.chatbot.id };
}

/** Signs `name` in and completes onboarding; returns the session Cookie header. */
export async function onboard(t: TestApp, name: string): Promise<string> {
  return (await onboardedCreator(t, name)).cookie;
}

/** A fan's browser: it keeps the fan cookie the api sets, as a real browser would. */
export class FanBrowser {
  cookie = '';
  constructor(
    readonly t: TestApp,
    readonly fanId = `mobile_fan_${randomBytes(6).toString('hex')}`,
    readonly headers: Record<string, string> = {},
  ) {}

  private keep(res: Response) {
    const set = setCookies(res).fp_fan;
    if (set) this.cookie = `fp_fan=${set}`;
    return res;
  }

  ask(
    creator: string,
    message: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    return fetch(`${this.t.url}/api/ask`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...this.headers,
        ...headers,
      },
      body: JSON.stringify({ creator, message, fanId: this.fanId, ...extra }),
    }).then((res) => this.keep(res));
  }

  history(creator?: string) {
    const query = creator ? `?creator=${encodeURIComponent(creator)}` : '';
    return fetch(`${this.t.url}/api/chatlog/fan/${encodeURIComponent(this.fanId)}${query}`, {
      headers: this.cookie ? { cookie: this.cookie } : {},
    }).then((res) => this.keep(res));
  }

  /** The messages of this fan's chat, oldest first. */
  async messages(creator?: string) {
    const res = await this.history(creator);
    if (res.status !== 200) throw new Error(`history: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { messages: ChatMessage[] }).messages;
  }
}

export interface ChatMessage {
  id: string;
  message: string;
  from: 'fan' | 'creator' | 'Creatorai';
  created_at: string;
  timestamp: string;
  status: 'pending' | 'answered' | null;
  replyTo: string | null;
  sources?: { title: string; source: string }[];
  fileAttachment?: { id: string; fileType: string; originalFilename: string; fileSize: number } | null;
  fanId?: string | null;
  fanName?: string | null;
}

/** Waits until `check` returns a truthy value (polling), or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < until) {
    last = await check();
    if (last) return last as NonNullable<T>;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`condition not met within ${timeoutMs} ms (last: ${JSON.stringify(last)})`);
}

/** A JSON request with a session cookie. */
export function call(t: TestApp, method: string, path: string, cookie: string, body?: unknown) {
  return fetch(`${t.url}${path}`, {
    method,
    headers: {
      ...(cookie ? { cookie } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

/** The body of a successful ask, answer or send-message: the message it stored. */
export async function sent(res: Response) {
  return (await res.json()) as { success: true; message: ChatMessage; aiWillAnswer?: boolean };
}

export interface TwoApps {
  /** The first api process, where `username` signed up. */
  readonly a: TestApp;
  /** A second api process on the same database (and Redis). */
  readonly b: TestApp;
  /** The creator's session cookie (valid on both). */
  readonly cookie: string;
}

/**
 * For a describe block: two api processes on one database and an onboarded creator `username`,
 * started before its tests and closed after them.
 */
export function twoApps(username: string): TwoApps {
  let a: TestApp | undefined;
  let b: TestApp | undefined;
  let cookie: string | undefined;
  beforeAll(async () => {
    a = await startTestApp();
    b = await startTestApp({ joinDatabase: a.databaseUrl! });
    cookie = await onboard(a, username);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('twoApps() is used before its beforeAll ran');
    return value;
  };
  return {
    get a() {
      return ready(a);
    },
    get b() {
      return ready(b);
    },
    get cookie() {
      return ready(cookie);
    },
  };
}
