import {
  type AnswerRetryEnv,
  answerRetryPolicy,
  createAnswerHandler,
  createMemoryHandler,
  handOverOnFinalFailure,
  type ModelEnv,
  requeueAwaitingAnswers,
} from '@fanpilot/answers';
import {
  ANSWER_QUEUE,
  INGEST_QUEUE,
  MAIL_QUEUE,
  MEMORY_QUEUE,
  POLICY_INPUTS_CHANGED_QUEUE,
  type PolicyInputsChangedJob,
  PUSH_QUEUE,
} from '@fanpilot/contracts';
import {
  JOB_OUTBOX_CHANNEL,
  jobOutboxSize,
  MAIL_KEPT_MS,
  pruneMailOutbox,
  takeJobOutbox,
} from '@fanpilot/core';
import type { Database, DbHandle } from '@fanpilot/db';
import {
  createJobRunner,
  type JobHandler,
  type JobRunner,
  type JobRunnerOptions,
  logRedisConnection,
  type RetryPolicy,
  runEvery,
} from '@fanpilot/jobs';
import {
  createEmbedder,
  createIngestHandler,
  type Embedder,
  type IngestEnv,
  type IngestHandler,
  startReembedder,
  startSweeper,
} from '@fanpilot/knowledge';
import type { Mailer } from '@fanpilot/mail';
import type { Storage } from '@fanpilot/storage';
import type { Kysely } from 'kysely';
import { type AlertsRoleOptions, startAlerts } from './alerts.ts';
import { singleFlightDrain } from './drain.ts';
import { createMailHandler, MAIL_RETRY } from './mail.ts';
import { createPushHandler, type PushSettings } from './push.ts';

export { ALERT_GROUP_WINDOW_MS, type AlertsRoleOptions } from './alerts.ts';
export { MAIL_RETRY } from './mail.ts';
export {
  checkPushEndpoint,
  createPushHandler,
  loadVapidKeys,
  type PushDeps,
  PushEndpointRefused,
  type PushSettings,
  type VapidKeys,
} from './push.ts';

/**
 * What a process runs in the background:
 * - `ingest`: consumes INGEST_QUEUE (knowledge items to text and chunks);
 * - `relay`: the one relay (record 0077): moves the jobs committed in the job outbox (answers, ingest,
 *   the answer policy's inputs changed, fan memory, push, mail) to the queue, woken by NOTIFY, polling as a fallback. Any
 *   number of processes relay side by side (SKIP LOCKED, and a job id per row);
 * - `answer`: consumes ANSWER_QUEUE (the AI answers fans) and POLICY_INPUTS_CHANGED_QUEUE (a
 *   creator's waiting questions the AI may now answer go to the AI);
 * - `push`: consumes PUSH_QUEUE (Web Push fan-out and delivery, ./push.ts, with the VAPID keys); its
 *   jobs are written to the job outbox by the triggers on messages to fans and pushed notices;
 * - `mail`: consumes MAIL_QUEUE: sends each mail `queueMail` stored (its job written beside it)
 *   through the mailer (SMTP, or the local outbox), retried with back-off (record 0042), and prunes
 *   mail kept past MAIL_KEPT_MS;
 * - `alerts`: the creator's alerts (record 0061): groups the alerts committed facts noted into one
 *   email and one push per creator once their collecting window closes (outside quiet hours), notes
 *   questions waiting longer than the creator's waiting time, and sends the digests due;
 * - `requeue`: once at start, hands the AI every question still waiting for it (after a restart);
 * - `sweep`: the timers: the knowledge sweep (stuck items) and the answer sweep (questions never
 *   queued, or whose tries ran out).
 */
export type BackgroundRole = 'relay' | 'ingest' | 'answer' | 'push' | 'mail' | 'alerts' | 'requeue' | 'sweep';

/** One process does everything: the api without Redis (in-process jobs). */
export const ALL_ROLES: readonly BackgroundRole[] = [
  'relay',
  'ingest',
  'answer',
  'push',
  'mail',
  'alerts',
  'requeue',
  'sweep',
];
/** The worker beside an api on Redis: the queues' consumers and the sweeps. */
export const WORKER_ROLES: readonly BackgroundRole[] = ['relay', 'ingest', 'answer', 'requeue', 'sweep'];
/**
 * The delivery roles: they read their keys from config (packages/config `deliveryShape`), so any
 * process given the keys runs them (record 0077): push (VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY),
 * mail (SMTP_URL), the creators' alerts (PUBLIC_ORIGIN and SESSION_SECRET, which sign their
 * unsubscribe links). Their jobs come from the one relay, so every process may consume them.
 */
export const DELIVERY_ROLES: readonly BackgroundRole[] = ['push', 'mail', 'alerts'];
/** A worker's roles: WORKER_ROLES, and each delivery role whose keys it was given. */
export const workerRoles = (keys: { push: boolean; mail: boolean; alerts: boolean }): BackgroundRole[] => [
  ...WORKER_ROLES,
  ...DELIVERY_ROLES.filter((role) => keys[role as keyof typeof keys]),
];
/**
 * The api beside a worker on Redis: the relay, the delivery roles (the api always has their keys:
 * without VAPID keys or SESSION_SECRET it keeps its own under DATA_DIR; a worker given the same keys
 * delivers beside it), and the requeue at start.
 */
export const API_WITH_WORKER_ROLES: readonly BackgroundRole[] = [
  'relay',
  'push',
  'mail',
  'alerts',
  'requeue',
];

/** The roles of the api: all of them in-process, else what `API_WITH_WORKER_ROLES` says. */
export const apiRoles = (mode: JobRunner['mode']): readonly BackgroundRole[] =>
  mode === 'in-process' ? ALL_ROLES : API_WITH_WORKER_ROLES;

/** The settings the runtime reads (packages/config `jobsShape`, answers' `answerRetryEnvShape`). */
export interface BackgroundEnv extends ModelEnv, AnswerRetryEnv {
  REDIS_URL?: string | undefined;
  JOBS_PREFIX: string;
  JOBS_ATTEMPTS: number;
  JOBS_BACKOFF_MS: number;
}

export interface BackgroundLog {
  info: (obj: object, msg: string) => void;
  warn: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
}

/**
 * Answers of this priority or more urgent (a creator's first and second waiting questions) run in
 * the answer queue's first lane, beside the rest (record 0087).
 */
export const FIRST_LANE_PRIORITY = 2;

/** How often the relay looks at the outbox when no NOTIFY woke it (a missed one, a lost connection). */
const OUTBOX_POLL_MS = 2_000;
/** The same without a LISTEN connection. */
const OUTBOX_POLL_UNHEARD_MS = 250;
/** How often the mail role deletes mail older than MAIL_KEPT_MS. */
const MAIL_PRUNE_INTERVAL_MS = 3_600_000;

/**
 * The one relay (record 0077): moves committed jobs from the job outbox to the queue, one drain at a
 * time, each under the job id its row names (a row relayed twice, after a relay died between the
 * enqueue and the delete, is one job). A failure leaves the rows for the next drain.
 */
export function jobOutboxRelay(db: Kysely<Database>, jobs: Pick<JobRunner, 'enqueue'>, log: BackgroundLog) {
  return singleFlightDrain(
    () =>
      takeJobOutbox(db, async (batch) => {
        for (const job of batch) {
          await jobs.enqueue(job.name, job.payload, {
            jobId: job.jobId,
            ...(job.priority !== undefined ? { priority: job.priority } : {}),
          });
        }
      }),
    log,
    'job outbox',
  );
}

export interface BackgroundJobsOptions {
  db: Kysely<Database>;
  env: BackgroundEnv;
  log: BackgroundLog;
  /** Overrides for tests (a short backoff, a short answer retry budget). */
  overrides?: Partial<Pick<JobRunnerOptions, 'backoffMs' | 'attempts' | 'retry' | 'redisUrl' | 'prefix'>>;
}

/**
 * The job runner of the api and the worker alike: BullMQ at REDIS_URL (else in-process), JOBS_ATTEMPTS
 * tries JOBS_BACKOFF_MS apart, AI answers retried for a time (ANSWER_RETRY_*), a failure logged
 * (the last try as an error), and an answer whose tries ran out handed over to the creator. Its
 * `idle()` also waits for those hand-overs to be stored.
 */
export function createBackgroundJobs(options: BackgroundJobsOptions): JobRunner {
  const { db, env, log } = options;
  const handOver = handOverOnFinalFailure(db, log);
  const handing = new Set<Promise<void>>();
  const runner = createJobRunner({
    redisUrl: env.REDIS_URL,
    prefix: env.JOBS_PREFIX,
    attempts: env.JOBS_ATTEMPTS,
    backoffMs: env.JOBS_BACKOFF_MS,
    retry: { ...answerRetryPolicy(env), [MAIL_QUEUE]: MAIL_RETRY },
    // A creator's first two waiting questions go to the answers' first lane (record 0087).
    lanes: { [ANSWER_QUEUE]: { upToPriority: FIRST_LANE_PRIORITY } },
    onError: (queue, error, data, final) => {
      log[final ? 'error' : 'warn']({ queue, reason: error.message, data, final }, 'job failed');
      const stored = handOver(queue, data, final);
      handing.add(stored);
      void stored.finally(() => handing.delete(stored));
    },
    onConnection: (event) => logRedisConnection(log, event),
    ...options.overrides,
  });
  return {
    ...runner,
    async idle(opts) {
      await runner.idle(opts);
      await Promise.all([...handing]);
    },
  };
}

export interface PeriodicTask {
  name: string;
  intervalMs: number;
  /** Runs once at start too. */
  now?: boolean;
  task: () => Promise<void>;
}

export interface BackgroundOptions {
  roles: readonly BackgroundRole[];
  db: Kysely<Database>;
  env: BackgroundEnv;
  /** Made by `createBackgroundJobs`; `close()` closes it. */
  jobs: JobRunner;
  log: BackgroundLog;
  /** Knowledge ingestion: needed by the `ingest` role and by the knowledge sweep. */
  ingest?: {
    env: IngestEnv;
    storage: Pick<Storage, 'get'>;
    /** Parser threads (INGEST_PARSER_THREADS wins; 2 by default). */
    threads?: number;
    /** Embeddings override (tests: none). */
    embedder?: Embedder | null;
  };
  /** Web Push's keys and allowed services (packages/config `deliveryShape`); required by the `push` role. */
  push?: PushSettings;
  /** The mailer (packages/mail) and, for tests, a shorter retry policy; required by the `mail` role. */
  mail?: { mailer: Mailer; retry?: RetryPolicy };
  /** The alerts role's settings: links point to `origin`, unsubscribe links are signed with `secret`. */
  alerts?: AlertsRoleOptions;
  /** Jobs in flight per queue in this process (2). */
  concurrency?: number;
  /**
   * AI answers in flight in this process, when it differs from `concurrency` (with Redis only): an
   * answer mostly waits on the model, so many run beside each other, and another creator's question
   * finds a free slot at once behind one creator's flood (docs/performance.md).
   */
  answerConcurrency?: number;
  /** More timers this process owns (the upload sweep, statistics), stopped by `close()`. */
  periodic?: PeriodicTask[];
  /** The clock the AI's daily budget is counted by. */
  clock?: () => Date;
  /** The answer handler's database handle when it is not `db`. */
  answerDb?: Kysely<Database>;
  /** LISTEN on the database (`DbHandle.listen`): a committed push wakes the push role at once. */
  listen?: DbHandle['listen'];
}

export interface Background {
  /** Resolves when no job this process consumes is queued, delayed, retrying or running. */
  idle: (options?: { queues?: string[]; timeoutMs?: number }) => Promise<void>;
  /** Stops the timers, lets the jobs in flight finish, closes the job runner and parser threads. */
  close: () => Promise<void>;
}

/**
 * The one background runtime: the api's in-process mode, the worker and the tests all start their
 * jobs here, so ingest, answers, push, retries, hand-over and every sweep are wired once.
 */
export async function startBackground(options: BackgroundOptions): Promise<Background> {
  const { db, env, jobs, log } = options;
  const roles = new Set(options.roles);
  const handlers: Record<string, JobHandler<never>> = {};
  let ingest: IngestHandler | undefined;
  if (roles.has('ingest')) {
    if (!options.ingest) throw new Error('the ingest role needs the ingest settings');
    ingest = createIngestHandler({
      db,
      storage: options.ingest.storage,
      env: options.ingest.env,
      maxAttempts: env.JOBS_ATTEMPTS,
      logger: log,
      ...(options.ingest.threads ? { concurrency: options.ingest.threads } : {}),
      ...(options.ingest.embedder !== undefined ? { embedder: options.ingest.embedder } : {}),
    });
    handlers[INGEST_QUEUE] = ingest;
  }
  if (roles.has('answer')) {
    handlers[ANSWER_QUEUE] = createAnswerHandler({
      db: options.answerDb ?? db,
      env,
      logger: log,
      ...(options.clock ? { now: options.clock } : {}),
    });
    // A change to what the answer policy reads was committed: the creator's waiting questions the
    // AI may now answer are queued (job ids make a question queued twice one job).
    handlers[POLICY_INPUTS_CHANGED_QUEUE] = (async ({ creatorId }: PolicyInputsChangedJob) => {
      const requeued = await requeueAwaitingAnswers(db, jobs, creatorId ? { creatorId } : {});
      if (requeued > 0) log.info({ creatorId, requeued }, 'waiting questions handed to the AI');
    }) as JobHandler<never>;
    handlers[MEMORY_QUEUE] = createMemoryHandler({ db: options.answerDb ?? db, env, logger: log });
  }
  const relay = roles.has('relay') ? jobOutboxRelay(db, jobs, log) : undefined;
  if (roles.has('push')) {
    if (!options.push) throw new Error('the push role needs the VAPID keys');
    handlers[PUSH_QUEUE] = createPushHandler({ db, jobs, logger: log, ...options.push }) as JobHandler<never>;
  }
  if (roles.has('mail')) {
    if (!options.mail) throw new Error('the mail role needs the mailer');
    handlers[MAIL_QUEUE] = createMailHandler({
      db,
      mailer: options.mail.mailer,
      log,
      retry: options.mail.retry ?? MAIL_RETRY,
    }) as JobHandler<never>;
  }
  const answers = handlers[ANSWER_QUEUE];
  if (answers && options.answerConcurrency && jobs.mode === 'redis') {
    // Its own consumer (one BullMQ worker per queue either way), with its own number in flight.
    delete handlers[ANSWER_QUEUE];
    jobs.work({ [ANSWER_QUEUE]: answers }, { concurrency: options.answerConcurrency });
  }
  if (Object.keys(handlers).length > 0) jobs.work(handlers, { concurrency: options.concurrency ?? 2 });

  const stops: (() => void)[] = [];
  const asyncStops: (() => Promise<void>)[] = [];
  const follow = async (channel: string, drain: () => Promise<void>, what: string) => {
    let heard = false;
    if (options.listen) {
      try {
        asyncStops.push(
          await options.listen(
            channel,
            () => void drain(),
            (up) => {
              heard = up;
              // Back after a lost connection: what was committed meanwhile is drained now.
              if (up) void drain();
            },
          ),
        );
      } catch (err) {
        log.warn({ err }, `${what}: no LISTEN connection; polling instead`);
      }
    }
    let last = 0;
    stops.push(
      runEvery(
        OUTBOX_POLL_UNHEARD_MS,
        async () => {
          const now = Date.now();
          if (heard && now - last < OUTBOX_POLL_MS) return;
          last = now;
          await drain();
        },
        { now: true, onError: (err) => log.warn({ err }, `${what} drain failed`) },
      ),
    );
  };
  if (relay) await follow(JOB_OUTBOX_CHANNEL, relay, 'job outbox');
  if (roles.has('mail')) {
    // Sent and abandoned mail is kept MAIL_KEPT_MS, then deleted (it holds one-time links).
    stops.push(
      runEvery(
        MAIL_PRUNE_INTERVAL_MS,
        async () => {
          const pruned = await pruneMailOutbox(db, new Date(Date.now() - MAIL_KEPT_MS));
          if (pruned > 0) log.info({ pruned }, 'old mail deleted from the outbox');
        },
        { now: true, onError: (err) => log.warn({ err }, 'mail outbox pruning failed') },
      ),
    );
  }
  if (roles.has('alerts')) {
    if (!options.alerts) throw new Error('the alerts role needs the public origin and the secret');
    stops.push(...startAlerts(db, options.alerts, log));
  }
  if (roles.has('sweep')) {
    if (options.ingest) {
      stops.push(
        startSweeper(db, {
          stuckAfterMs: options.ingest.env.INGEST_STUCK_AFTER_MS,
          intervalMs: options.ingest.env.INGEST_SWEEP_INTERVAL_MS,
          maxAttempts: env.JOBS_ATTEMPTS,
          onError: (err) => log.warn({ err }, 'knowledge sweep failed'),
        }),
      );
      // A changed embedder (another model or size, or the local encoder in place of an API):
      // ready items another embedder made are re-embedded in the background.
      const embedder =
        options.ingest.embedder !== undefined ? options.ingest.embedder : createEmbedder(options.ingest.env);
      if (embedder) {
        stops.push(
          startReembedder(db, embedder, {
            intervalMs: options.ingest.env.REEMBED_INTERVAL_MS,
            onDone: (outcome) => log.info(outcome, 'knowledge re-embedded with the current embedder'),
            onError: (err) => log.warn({ err }, 're-embedding failed'),
          }),
        );
      }
    }
  }
  for (const p of options.periodic ?? []) {
    stops.push(
      runEvery(p.intervalMs, p.task, {
        now: p.now ?? false,
        onError: (err) => log.warn({ err }, `${p.name} failed`),
      }),
    );
  }

  if (roles.has('requeue')) {
    try {
      const requeued = await requeueAwaitingAnswers(db, jobs);
      if (requeued > 0) log.info({ requeued }, 'pending fan questions handed to the AI');
    } catch (err) {
      log.error({ err }, 'could not re-enqueue pending fan questions');
    }
  }

  let closed: Promise<void> | undefined;
  return {
    async idle(opts) {
      // A job the outbox holds is work to do too: relay, wait for the jobs (an answer may commit a
      // new message to push), until both are empty.
      for (;;) {
        await relay?.();
        await jobs.idle(opts);
        if (!relay || (await jobOutboxSize(db)) === 0) return;
      }
    },
    close() {
      closed ??= (async () => {
        for (const stop of stops) stop();
        for (const stop of asyncStops) await stop().catch(() => {});
        await jobs.close();
        await ingest?.close();
      })();
      return closed;
    },
  };
}
