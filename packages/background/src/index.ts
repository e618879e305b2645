import {
  type AnswerRetryEnv,
  answerRetryPolicy,
  createAnswerHandler,
  handOverOnFinalFailure,
  type ModelEnv,
  requeueAwaitingAnswers,
  startAnswerSweep,
} from '@fanpilot/answers';
import { ANSWER_QUEUE, INGEST_QUEUE, PUSH_QUEUE, type PushJob, pushFanOutJobId } from '@fanpilot/contracts';
import type { Database } from '@fanpilot/db';
import {
  createJobRunner,
  type JobHandler,
  type JobRunner,
  type JobRunnerOptions,
  logRedisConnection,
  runEvery,
} from '@fanpilot/jobs';
import {
  createIngestHandler,
  type Embedder,
  enqueueIngest,
  type IngestEnv,
  type IngestHandler,
  startSweeper,
} from '@fanpilot/knowledge';
import type { Storage } from '@fanpilot/storage';
import type { Kysely } from 'kysely';

/**
 * What a process runs in the background:
 * - `ingest`: consumes INGEST_QUEUE (knowledge items to text and chunks);
 * - `answer`: consumes ANSWER_QUEUE (the AI answers fans), each answer stored asking for a push;
 * - `push`: consumes PUSH_QUEUE (Web Push fan-out and delivery, the api's `push` handler);
 * - `requeue`: once at start, hands the AI every question still waiting for it (after a restart);
 * - `sweep`: the timers: the knowledge sweep (stuck items) and the answer sweep (questions never
 *   queued, or whose tries ran out).
 */
export type BackgroundRole = 'ingest' | 'answer' | 'push' | 'requeue' | 'sweep';

/** One process does everything: the api without Redis (in-process jobs). */
export const ALL_ROLES: readonly BackgroundRole[] = ['ingest', 'answer', 'push', 'requeue', 'sweep'];
/** The worker beside an api on Redis: the queues' consumers and the sweeps. */
export const WORKER_ROLES: readonly BackgroundRole[] = ['ingest', 'answer', 'requeue', 'sweep'];
/** The api beside a worker on Redis: it delivers pushes (it holds the VAPID keys) and requeues at start. */
export const API_WITH_WORKER_ROLES: readonly BackgroundRole[] = ['push', 'requeue'];

/** The roles of the api: all of them in-process, else what `API_WITH_WORKER_ROLES` says. */
export const apiRoles = (mode: JobRunner['mode']): readonly BackgroundRole[] =>
  mode === 'in-process' ? ALL_ROLES : API_WITH_WORKER_ROLES;

/** The settings the runtime reads (packages/config `jobsShape`, answers' `answerRetryEnvShape`). */
export interface BackgroundEnv extends ModelEnv, AnswerRetryEnv {
  REDIS_URL?: string | undefined;
  JOBS_PREFIX: string;
  JOBS_ATTEMPTS: number;
  JOBS_BACKOFF_MS: number;
  ANSWER_SWEEP_INTERVAL_MS: number;
}

export interface BackgroundLog {
  info: (obj: object, msg: string) => void;
  warn: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
}

/**
 * Asks for a push about a message or an announcement: the one way every part of the code does
 * (routes after a commit, the AI answer handler after storing its reply). Never fails the caller:
 * push is a courtesy, and the job id makes a second request for the same thing a no-op.
 */
export async function requestPush(
  jobs: Pick<JobRunner, 'enqueue'>,
  job: Omit<PushJob, 'subscriptionId'>,
  log?: { warn: (obj: object, msg: string) => void },
): Promise<void> {
  try {
    await jobs.enqueue(PUSH_QUEUE, job, { jobId: pushFanOutJobId(job) });
  } catch (err) {
    log?.warn({ err, job }, 'push not requested');
  }
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
    retry: answerRetryPolicy(env),
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
  /** The PUSH_QUEUE handler (Web Push lives in the api); required by the `push` role. */
  push?: (jobs: JobRunner) => JobHandler<never>;
  /** Jobs in flight per queue in this process (2). */
  concurrency?: number;
  /** More timers this process owns (the upload sweep, statistics), stopped by `close()`. */
  periodic?: PeriodicTask[];
  /** The clock the AI's daily budget is counted by. */
  clock?: () => Date;
  /** The answer handler's database handle when it is not `db`. */
  answerDb?: Kysely<Database>;
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
      onAnswered: (replyId) => requestPush(jobs, { kind: 'message', id: replyId }, log),
      ...(options.clock ? { now: options.clock } : {}),
    });
  }
  if (roles.has('push')) {
    if (!options.push) throw new Error('the push role needs the push handler');
    handlers[PUSH_QUEUE] = options.push(jobs);
  }
  if (Object.keys(handlers).length > 0) jobs.work(handlers, { concurrency: options.concurrency ?? 2 });

  const stops: (() => void)[] = [];
  if (roles.has('sweep')) {
    if (options.ingest) {
      stops.push(
        startSweeper(db, {
          stuckAfterMs: options.ingest.env.INGEST_STUCK_AFTER_MS,
          intervalMs: options.ingest.env.INGEST_SWEEP_INTERVAL_MS,
          maxAttempts: env.JOBS_ATTEMPTS,
          enqueue: (itemId, run) => enqueueIngest(jobs, itemId, run),
          onError: (err) => log.warn({ err }, 'knowledge sweep failed'),
        }),
      );
    }
    if (env.ANSWER_SWEEP_INTERVAL_MS > 0) {
      stops.push(
        startAnswerSweep(db, jobs, {
          intervalMs: env.ANSWER_SWEEP_INTERVAL_MS,
          onRequeued: (count) => log.info({ count }, 'fan questions that were never queued handed to the AI'),
          onError: (err) => log.warn({ err }, 'answer sweep failed'),
        }),
      );
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
    idle: (opts) => jobs.idle(opts),
    close() {
      closed ??= (async () => {
        for (const stop of stops) stop();
        await jobs.close();
        await ingest?.close();
      })();
      return closed;
    },
  };
}
