import { availableParallelism } from 'node:os';
import path from 'node:path';
import {
  apiRoles,
  type Background,
  type BackgroundLog,
  createBackgroundJobs,
  loadVapidKeys,
  type PeriodicTask,
  startBackground,
} from '@fanpilot/background';
import { refreshChunkStatistics } from '@fanpilot/core';
import { createDb, migrateToLatest } from '@fanpilot/db';
import { IngestEnvError, loadIngestEnv } from '@fanpilot/knowledge';
import { createMailer } from '@fanpilot/mail';
import { createStorage } from '@fanpilot/storage';
import getPort from 'get-port';
import { buildApp, defaultWebRoots } from './app.ts';
import { resolveConfig } from './config.ts';
import { EnvError, loadEnv } from './env.ts';
import { createPayments } from './services/billing.ts';
import { uploadSweep } from './services/upload-sweep.ts';
import { describeSetup, setupLines } from './setup.ts';

/** How often the embedded database's planner and search statistics are refreshed. */
const ANALYZE_INTERVAL_MS = 60 * 60_000;

async function main() {
  let env: ReturnType<typeof loadEnv>;
  let ingestEnv: ReturnType<typeof loadIngestEnv>;
  try {
    env = loadEnv();
    ingestEnv = loadIngestEnv(process.env);
  } catch (err) {
    if (err instanceof EnvError) {
      console.error(err.message);
      process.exit(1);
    }
    if (err instanceof IngestEnvError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  // PORT=0: a free port, chosen before the public origin is derived from it.
  const port = env.PORT === 0 ? await getPort({ host: '127.0.0.1' }) : env.PORT;
  const config = await resolveConfig(env, { listenPort: port });
  const db = createDb({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  await migrateToLatest(db.db);
  const storage = await createStorage(config.s3);
  // The api's logger exists once the app is built, and the app needs the job runner first.
  const log: BackgroundLog = {
    info: (obj, msg) => app.log.info(obj, msg),
    warn: (obj, msg) => app.log.warn(obj, msg),
    error: (obj, msg) => app.log.error(obj, msg),
  };
  const jobs = createBackgroundJobs({ db: db.db, env, log });
  const vapid = loadVapidKeys(env, config.publicOrigin);
  const payments = createPayments(env);
  // No STRIPE_SECRET_KEY outside production: fans' subscriptions run against the local Stripe
  // stand-in on loopback (its own hosted test pages; no real money), like the local sign-in. It is a
  // development dependency, loaded only here (record 0070), and keeps what it knows under DATA_DIR.
  const localStripe =
    !env.STRIPE_SECRET_KEY && env.NODE_ENV !== 'production'
      ? await (await import('@fanpilot/local-stripe')).startStripeService({
          dataDir: path.join(env.DATA_DIR, 'local-stripe'),
        })
      : undefined;
  if (localStripe) {
    localStripe.deliverTo(`http://127.0.0.1:${port}/api/stripe/webhook`);
    payments.localFans = { stripe: localStripe.client, webhookSecret: localStripe.webhookSecret };
  }
  const mailer = createMailer({ ...env, PUBLIC_ORIGIN: config.publicOrigin });
  const app = await buildApp({
    config,
    db,
    storage,
    jobs,
    web: defaultWebRoots(),
    ingest: ingestEnv,
    vapid,
    payments,
    mailer,
  });

  const periodic: PeriodicTask[] = [];
  // MinIO in compose expires unused uploads with a bucket lifecycle rule; the embedded store has none.
  if (!env.S3_ENDPOINT && !env.S3_ACCESS_KEY_ID) periodic.push(uploadSweep(db.db, storage));
  // PGlite has no autovacuum: refresh the statistics that retrieval reads to tell a library's common
  // words from its telling ones (packages/knowledge/src/retrieve.ts). PostgreSQL does this itself.
  if (db.kind === 'pglite') {
    periodic.push({
      name: 'analyze',
      intervalMs: ANALYZE_INTERVAL_MS,
      now: true,
      task: async () => {
        await refreshChunkStatistics(db.db);
      },
    });
  }
  let background: Background | undefined;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      await app.close();
      await (background?.close() ?? jobs.close());
      mailer.close();
      await localStripe?.close();
      await db.close();
      await config.stopEmbedded();
    } finally {
      process.exit(0);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port, host: env.HOST });
  // Without Redis every job runs here; with it, apps/worker consumes ingest and answers, and this
  // process delivers pushes (it holds the VAPID keys) and requeues what a restart left waiting.
  background = await startBackground({
    roles: apiRoles(jobs.mode),
    db: db.db,
    listen: db.listen,
    env,
    jobs,
    log,
    // Parser threads (INGEST_PARSER_THREADS): by default all cores but one, which stays the api's.
    ingest: { env: ingestEnv, storage, threads: Math.max(1, availableParallelism() - 1) },
    push: { vapid, allowedHosts: env.PUSH_ALLOWED_HOSTS },
    mail: { mailer },
    alerts: {
      origin: config.publicOrigin,
      secret: config.sessionSecret,
      windowMs: env.ALERT_GROUP_WINDOW_MS,
    },
    periodic,
  });
  // Every part, and which of them are embedded (built in, for one machine), named at start-up.
  const setup = describeSetup({ env, config, database: db.kind, jobs: jobs.mode, payments });
  const parts = setupLines(setup);
  if (env.NODE_ENV === 'production') {
    // Production logs are JSON lines only, for whatever collects them.
    app.log.info(
      {
        publicOrigin: config.publicOrigin,
        listen: `${env.HOST}:${port}`,
        setup: parts,
        embedded: setup.filter((p) => p.embedded).map((p) => p.part),
      },
      'Fanpilot is running',
    );
  } else {
    console.log(
      `\nFanpilot is running at ${config.publicOrigin} (listening on ${env.HOST}:${port})\n  ${parts.join('\n  ')}\n`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
