import { createServer, type Server } from 'node:http';
import { availableParallelism } from 'node:os';
import { createBackgroundJobs, loadVapidKeys, startBackground, workerRoles } from '@fanpilot/background';
import { storageSettings } from '@fanpilot/config';
import { ANSWER_QUEUE, INGEST_QUEUE, MEMORY_QUEUE } from '@fanpilot/contracts';
import { pingDatabase } from '@fanpilot/core';
import { createDb, migrateToLatest } from '@fanpilot/db';
import { createMailer } from '@fanpilot/mail';
import { createStorage } from '@fanpilot/storage';
import { loadWorkerEnv, type WorkerEnv, WorkerEnvError } from './env.ts';
import { createLogger } from './log.ts';

async function main() {
  let env: WorkerEnv;
  try {
    env = loadWorkerEnv();
  } catch (err) {
    if (err instanceof WorkerEnvError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger(env.LOG_LEVEL, { service: 'worker' });

  // Answers hold a connection only for their queries, not while the model writes.
  const db = createDb({
    databaseUrl: env.DATABASE_URL,
    poolSize: env.WORKER_CONCURRENCY + 4 + Math.ceil(env.WORKER_ANSWER_CONCURRENCY / 4),
  });
  await migrateToLatest(db.db);
  const storage = await createStorage(storageSettings(env));
  const jobs = createBackgroundJobs({ db: db.db, env, log });
  // Push, mail and the creators' alerts are delivered by any process given their keys (record 0077).
  const origin = env.PUBLIC_ORIGIN;
  const keys = {
    push: Boolean(env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY && (env.VAPID_SUBJECT || origin)),
    mail: Boolean(env.SMTP_URL),
    alerts: Boolean(origin && env.SESSION_SECRET),
  };
  // A worker sends mail through SMTP_URL only (no local outbox of its own).
  const mailer = keys.mail
    ? createMailer({ ...env, NODE_ENV: 'production', PUBLIC_ORIGIN: origin })
    : undefined;
  const background = await startBackground({
    roles: workerRoles(keys),
    db: db.db,
    // A committed job wakes the relay at once (record 0077).
    listen: db.listen,
    env,
    jobs,
    log,
    // Parser threads: INGEST_PARSER_THREADS, else one per core but no more than the jobs in flight.
    ingest: {
      env: env.ingest,
      storage,
      threads: Math.min(env.WORKER_CONCURRENCY, availableParallelism()),
    },
    ...(keys.push
      ? {
          push: {
            // Both keys are set (a pair kept under the api's DATA_DIR is not the worker's to read).
            vapid: loadVapidKeys({ ...env, DATA_DIR: '' }, origin ?? 'http://localhost'),
            allowedHosts: env.PUSH_ALLOWED_HOSTS,
          },
        }
      : {}),
    ...(mailer ? { mail: { mailer } } : {}),
    ...(keys.alerts && origin && env.SESSION_SECRET
      ? { alerts: { origin, secret: env.SESSION_SECRET, windowMs: env.ALERT_GROUP_WINDOW_MS } }
      : {}),
    concurrency: env.WORKER_CONCURRENCY,
    answerConcurrency: env.WORKER_ANSWER_CONCURRENCY,
  });

  const health: Server = createServer(async (req, res) => {
    // The autoscaler's reading (infra/k8s/worker-scaledobject.yaml): jobs waiting, prioritized,
    // delayed or running in the queues the workers consume, shared by every replica (BullMQ's
    // answer jobs are prioritized, so a Redis list length would miss them).
    if (req.method === 'GET' && req.url === '/queue-depth') {
      try {
        const [ingest, answer] = await Promise.all([jobs.pending(INGEST_QUEUE), jobs.pending(ANSWER_QUEUE)]);
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(
          JSON.stringify({
            queued: ingest + answer,
            queues: { [INGEST_QUEUE]: ingest, [ANSWER_QUEUE]: answer },
          }),
        );
      } catch {
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"redis_unavailable"}');
      }
      return;
    }
    if (req.method !== 'GET' || (req.url !== '/healthz' && req.url !== '/readyz')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
      return;
    }
    const checks: Record<string, 'ok' | 'failing'> = {};
    const within = <T>(p: Promise<T>) =>
      Promise.race([
        p,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000)),
      ]);
    await Promise.all([
      within(pingDatabase(db.db)).then(
        () => (checks.database = 'ok'),
        () => (checks.database = 'failing'),
      ),
      within(jobs.ping()).then(
        () => (checks.redis = 'ok'),
        () => (checks.redis = 'failing'),
      ),
    ]);
    const ok = !closing && Object.values(checks).every((c) => c === 'ok');
    res
      .writeHead(ok ? 200 : 503, { 'content-type': 'application/json' })
      .end(JSON.stringify({ status: ok ? 'ok' : closing ? 'closing' : 'failing', checks }));
  });
  await new Promise<void>((resolve) =>
    health.listen(env.WORKER_HEALTH_PORT, env.WORKER_HEALTH_HOST, resolve),
  );
  const address = health.address();
  const healthPort = typeof address === 'object' && address ? address.port : env.WORKER_HEALTH_PORT;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down: finishing jobs in flight');
    const force = setTimeout(() => {
      log.error({ signal }, 'jobs did not finish in time; exiting');
      process.exit(1);
    }, env.WORKER_SHUTDOWN_TIMEOUT_MS);
    force.unref();
    let code = 0;
    try {
      await background.close();
      mailer?.close();
      await db.close();
      await new Promise<void>((resolve) => health.close(() => resolve()));
      log.info({}, 'stopped');
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      code = 1;
    } finally {
      process.exit(code);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  log.info(
    {
      queues: [INGEST_QUEUE, ANSWER_QUEUE, MEMORY_QUEUE],
      delivers: Object.entries(keys)
        .filter(([, on]) => on)
        .map(([role]) => role),
      concurrency: env.WORKER_CONCURRENCY,
      healthPort,
      database: db.kind,
    },
    'worker ready: ingesting knowledge and answering fans',
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
