import { availableParallelism } from 'node:os';
import { answerRetryPolicy, handOverOnFinalFailure } from '@fanpilot/answers';
import { INGEST_QUEUE } from '@fanpilot/contracts';
import { createDb, migrateToLatest } from '@fanpilot/db';
import { createJobRunner, logRedisConnection } from '@fanpilot/jobs';
import {
  createIngestHandler,
  enqueueIngest,
  IngestEnvError,
  loadIngestEnv,
  runEvery,
  startSweeper,
} from '@fanpilot/knowledge';
import { createStorage } from '@fanpilot/storage';
import getPort from 'get-port';
import { sql } from 'kysely';
import { buildApp, defaultWebRoots } from './app.ts';
import { startAnswering } from './background.ts';
import { resolveConfig } from './config.ts';
import { EnvError, loadEnv } from './env.ts';
import { createPayments } from './services/billing.ts';
import { loadVapidKeys } from './services/push.ts';
import { startUploadSweep } from './services/upload-sweep.ts';
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
  const jobs = createJobRunner({
    redisUrl: env.REDIS_URL,
    prefix: env.JOBS_PREFIX,
    retry: answerRetryPolicy(env),
    onError: (queue, error, data, final) => {
      app.log[final ? 'error' : 'warn']({ queue, reason: error.message, final }, 'job failed');
      handOver(queue, data, final);
    },
    onConnection: (event) => logRedisConnection(app.log, event),
  });
  const vapid = loadVapidKeys(env, config.publicOrigin);
  const payments = createPayments(env);
  const app = await buildApp({
    config,
    db,
    storage,
    jobs,
    web: defaultWebRoots(),
    ingest: ingestEnv,
    vapid,
    payments,
  });
  const handOver = handOverOnFinalFailure(db.db, app.log);

  // Without Redis the knowledge jobs run here; with it, apps/worker consumes them.
  let stopIngest = async () => {};
  if (jobs.mode === 'in-process') {
    // Parser threads (INGEST_PARSER_THREADS): by default all cores but one, which stays the api's.
    const ingest = createIngestHandler({
      db: db.db,
      storage,
      env: ingestEnv,
      logger: app.log,
      concurrency: Math.max(1, availableParallelism() - 1),
    });
    jobs.work({ [INGEST_QUEUE]: ingest }, { concurrency: 2 });
    const stopSweeper = startSweeper(db.db, {
      stuckAfterMs: ingestEnv.INGEST_STUCK_AFTER_MS,
      intervalMs: ingestEnv.INGEST_SWEEP_INTERVAL_MS,
      maxAttempts: 5,
      enqueue: (itemId, run) => enqueueIngest(jobs, itemId, run),
      onError: (err) => app.log.warn({ err }, 'knowledge sweep failed'),
    });
    stopIngest = async () => {
      stopSweeper();
      await ingest.close();
    };
  }

  // MinIO in compose expires unused uploads with a bucket lifecycle rule; the embedded store has none.
  const stopUploadSweep =
    env.S3_ENDPOINT || env.S3_ACCESS_KEY_ID
      ? () => {}
      : startUploadSweep(db.db, storage, (err) => app.log.warn({ err }, 'upload sweep failed'));

  // PGlite has no autovacuum: refresh the statistics that retrieval reads to tell a library's common
  // words from its telling ones (packages/knowledge/src/retrieve.ts). PostgreSQL does this itself.
  const stopAnalyze =
    db.kind === 'pglite'
      ? runEvery(
          ANALYZE_INTERVAL_MS,
          async () => {
            await sql`analyze chunks`.execute(db.db);
          },
          { now: true, onError: (err) => app.log.warn({ err }, 'analyze failed') },
        )
      : () => {};

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      stopUploadSweep();
      stopAnalyze();
      await app.close();
      await jobs.close();
      await stopIngest();
      await db.close();
      await config.stopEmbedded();
    } finally {
      process.exit(0);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port, host: env.HOST });
  await startAnswering({
    db: db.db,
    jobs,
    env,
    logger: app.log,
    push: { vapid, allowedHosts: env.PUSH_ALLOWED_HOSTS },
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
