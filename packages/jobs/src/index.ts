import { type ConnectionOptions, Queue, Worker } from 'bullmq';

export { runEvery } from './periodic.ts';

/** A job handler: idempotent (it may run twice) and throws an Error to ask for a retry. */
export type JobHandler<T = unknown> = (
  data: T,
  context: { attempt: number; jobId: string | undefined },
) => Promise<void>;

export interface EnqueueOptions {
  /** Deduplicates: while a job with this id waits or runs, adding it again does nothing. */
  jobId?: string;
  delayMs?: number;
  attempts?: number;
  /**
   * Lower runs first (1 is the most urgent, at most PRIORITY_MAX); equal priorities run in the order
   * added. A job without one runs before every prioritised job (as in BullMQ).
   */
  priority?: number;
  /**
   * Re-adds a job whose id is held by a job that failed for good (kept for inspection), instead of
   * doing nothing. The sweeps use it to give a question whose tries ran out another chance.
   */
  replaceFailed?: boolean;
}

/**
 * How a queue's jobs are retried: exponential backoff from `backoffMs`, each wait at most
 * `maxBackoffMs`, tries spread over `retryForMs` in all (a budget in time, not in tries).
 */
export interface RetryPolicy {
  backoffMs: number;
  maxBackoffMs: number;
  retryForMs: number;
}

/** The wait before try `attempt + 1`, after try `attempt` failed. */
export function retryDelay(policy: Pick<RetryPolicy, 'backoffMs' | 'maxBackoffMs'>, attempt: number): number {
  return Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** Math.max(0, attempt - 1));
}

/** How many tries fit in the policy's time budget (the waits between them add up to at most it). */
export function attemptsWithin(policy: RetryPolicy): number {
  let waited = 0;
  let attempt = 1;
  while (attempt < 10_000) {
    const next = retryDelay(policy, attempt);
    if (waited + next > policy.retryForMs) break;
    waited += next;
    attempt++;
  }
  return attempt;
}

/** An enqueue that Redis has not taken within this long fails (the caller's write is already stored). */
export const DEFAULT_ENQUEUE_TIMEOUT_MS = 1500;

/** BullMQ's largest priority (2^21 - 1); larger ones are clamped to it. */
export const PRIORITY_MAX = 2 ** 21 - 1;

/** A priority as both runners take it: 0 for none, else a whole number from 1 to PRIORITY_MAX. */
function priorityOf(priority: number | undefined): number {
  if (priority === undefined || !Number.isFinite(priority)) return 0;
  return Math.min(PRIORITY_MAX, Math.max(1, Math.round(priority)));
}

export interface JobRunner {
  readonly mode: 'redis' | 'in-process';
  enqueue: (queue: string, data: object, options?: EnqueueOptions) => Promise<void>;
  /** Consumes the named queues in this process. */
  work: (handlers: Record<string, JobHandler<never>>, options?: { concurrency?: number }) => void;
  /** Counts of jobs waiting or running per queue (for health and tests). */
  pending: (queue: string) => Promise<number>;
  ping: () => Promise<void>;
  /**
   * Resolves once no job of the queues this process consumes (or of `queues`) is waiting, delayed,
   * waiting for a retry or running: BullMQ's counts are zero, or in-process the lists, timers and
   * handlers are empty. The signal tests wait for before asserting that something did not happen.
   */
  idle: (options?: { queues?: string[]; timeoutMs?: number }) => Promise<void>;
  /** Stops taking jobs, waits for the ones running, then closes connections. */
  close: () => Promise<void>;
}

export interface JobRunnerOptions {
  /** redis://… ; unset runs handlers inside this process. */
  redisUrl?: string | undefined;
  attempts?: number;
  backoffMs?: number;
  /** Prefix for BullMQ keys (tests isolate themselves with it). */
  prefix?: string;
  /** Per queue: retries budgeted in time, instead of `attempts` tries `backoffMs` apart. */
  retry?: Record<string, RetryPolicy>;
  /** How long an enqueue may wait on Redis before it fails (1.5 s). */
  enqueueTimeoutMs?: number;
  onError?: (queue: string, error: Error, data: unknown, final: boolean) => void;
  /**
   * Redis connection trouble (refused, reset, timed out), kept apart from job failures: called with
   * `down` once when an outage starts, and `up` with its length and how many errors it raised.
   */
  onConnection?: (event: ConnectionEvent) => void;
  /**
   * Per queue: a first lane (record 0087). Jobs of priority 1 to `upToPriority` (a creator's first
   * waiting questions) go to a second BullMQ queue, `<name>~first`, consumed with the same handler
   * and its own concurrency, so that one creator's flood (priorities beyond) never holds every slot
   * another creator's first question needs. Counts, `idle` and errors speak of the queue's own name.
   */
  lanes?: Record<string, { upToPriority: number }>;
}

/** The first lane's queue of `name` (JobRunnerOptions.lanes). */
export const firstLaneOf = (name: string) => `${name}~first`;

export type ConnectionEvent =
  | { state: 'down'; error: Error }
  | { state: 'up'; downForMs: number; errors: number };

/** Whether an error is Redis being unreachable rather than a job failing. */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: string }).code;
  if (
    code &&
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH'].includes(
      code,
    )
  )
    return true;
  return /Connection is closed|Stream isn't writeable|enableOfflineQueue|connect ETIMEDOUT|Command timed out|did not take the job/i.test(
    err.message,
  );
}

/** Tracks one outage at a time, so an outage is reported once, not once per command. */
function connectionWatch(onConnection: JobRunnerOptions['onConnection']) {
  let downSince: number | null = null;
  let errors = 0;
  return {
    failed(error: Error) {
      errors++;
      if (downSince === null) {
        downSince = Date.now();
        onConnection?.({ state: 'down', error });
      }
    },
    ok() {
      if (downSince === null) return;
      const downForMs = Date.now() - downSince;
      const count = errors;
      downSince = null;
      errors = 0;
      onConnection?.({ state: 'up', downForMs, errors: count });
    },
  };
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not take the job within ${ms} ms (${what})`)), ms);
  });
  // The late result of a timed-out call is of no interest (a job id makes a late add harmless).
  work.catch(() => {});
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Waits until `check` holds twice in a row 10 ms apart (a job finishing may enqueue the next one on
 * the following tick), or throws after `timeoutMs` (30 s).
 */
async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  let streak = 0;
  while (streak < 2) {
    streak = (await check()) ? streak + 1 : 0;
    if (streak >= 2) return;
    if (Date.now() > end) throw new Error(`the jobs were still running after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  return options.redisUrl ? redisRunner(options.redisUrl, options) : inProcessRunner(options);
}

function connectionFrom(url: string): ConnectionOptions {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.pathname.length > 1 ? { db: Number(u.pathname.slice(1)) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
  };
}

/** BullMQ job ids may not hold ':'. */
const safeId = (id: string) => id.replace(/:/g, '_');

function redisRunner(url: string, options: JobRunnerOptions): JobRunner {
  const connection = connectionFrom(url);
  // Producers fail fast: with Redis down a command is refused at once instead of waiting in
  // ioredis's offline queue for the whole outage; the caller has stored its write, and the sweeps
  // queue it once Redis is back. (Workers keep BullMQ's `maxRetriesPerRequest: null`.)
  const producer: ConnectionOptions = { ...connection, enableOfflineQueue: false, maxRetriesPerRequest: 1 };
  const prefix = options.prefix ?? 'fanpilot';
  const attempts = options.attempts ?? 5;
  const backoffMs = options.backoffMs ?? 2000;
  const enqueueTimeoutMs = options.enqueueTimeoutMs ?? DEFAULT_ENQUEUE_TIMEOUT_MS;
  const watch = connectionWatch(options.onConnection);
  const queues = new Map<string, Queue>();
  const workers: Worker[] = [];
  const queue = (name: string) => {
    let q = queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: producer, prefix });
      q.on('error', (err) => {
        if (isConnectionError(err)) watch.failed(err);
      });
      queues.set(name, q);
    }
    return q;
  };
  /** A producer call that fails within `enqueueTimeoutMs` and keeps the outage count. */
  const produce = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
    try {
      const result = await withTimeout(call(), enqueueTimeoutMs, what);
      watch.ok();
      return result;
    } catch (err) {
      if (isConnectionError(err)) watch.failed(err as Error);
      throw err;
    }
  };

  /** The queues that hold `name`'s jobs: itself, and its first lane when it has one. */
  const physical = (name: string) => (options.lanes?.[name] ? [name, firstLaneOf(name)] : [name]);
  /** Where a job of `name` with this priority goes. */
  const laneFor = (name: string, priority: number) => {
    const lane = options.lanes?.[name];
    return lane && priority >= 1 && priority <= lane.upToPriority ? firstLaneOf(name) : name;
  };

  return {
    mode: 'redis',
    async enqueue(name, data, opts = {}) {
      const policy = options.retry?.[name];
      await produce(name, async () => {
        const target = laneFor(name, priorityOf(opts.priority));
        const q = queue(target);
        if (opts.jobId && opts.replaceFailed) {
          const held = await q.getJob(safeId(opts.jobId));
          if (held && (await held.isFailed())) await held.remove();
        }
        // One job per id across the lanes: a job already waiting or running in the other lane
        // (queued before with another priority) is that job.
        if (opts.jobId && options.lanes?.[name]) {
          for (const other of physical(name)) {
            if (other === target) continue;
            const held = await queue(other).getJob(safeId(opts.jobId));
            if (held && !(await held.isFailed())) return;
          }
        }
        await q.add(name, data, {
          ...(opts.jobId ? { jobId: safeId(opts.jobId) } : {}),
          ...(opts.delayMs ? { delay: opts.delayMs } : {}),
          ...(priorityOf(opts.priority) ? { priority: priorityOf(opts.priority) } : {}),
          attempts: opts.attempts ?? (policy ? attemptsWithin(policy) : attempts),
          backoff: policy
            ? { type: 'capped', delay: policy.backoffMs }
            : { type: 'exponential', delay: backoffMs },
          removeOnComplete: true,
          removeOnFail: { count: 1000 },
        });
      });
    },
    work(handlers, opts = {}) {
      for (const [name, handler] of Object.entries(handlers))
        for (const queueName of physical(name)) consume(name, queueName, handler, opts);
    },
    async pending(name) {
      let total = 0;
      for (const queueName of physical(name)) {
        const counts = await produce(name, () =>
          queue(queueName).getJobCounts('waiting', 'active', 'delayed', 'prioritized'),
        );
        total += Object.values(counts).reduce((a, b) => a + b, 0);
      }
      return total;
    },
    async idle(opts = {}) {
      const names = opts.queues ? opts.queues.flatMap(physical) : [...new Set(workers.map((w) => w.name))];
      await until(async () => {
        for (const name of names) {
          const counts = await queue(name).getJobCounts('waiting', 'active', 'delayed', 'prioritized');
          if (Object.values(counts).some((n) => n > 0)) return false;
        }
        return true;
      }, opts.timeoutMs);
    },
    async ping() {
      // A real round trip to Redis, not just a connected socket.
      await produce('health', () => queue('health').getJobCounts('waiting'));
    },
    async close() {
      await Promise.all(workers.map((w) => w.close()));
      await Promise.all([...queues.values()].map((q) => q.close()));
    },
  };

  /** A BullMQ worker on `queueName`, running `name`'s handler (the queue itself or its first lane). */
  function consume(
    name: string,
    queueName: string,
    handler: JobHandler<never>,
    opts: { concurrency?: number },
  ) {
    const worker = new Worker(
      queueName,
      async (job) => {
        await (handler as JobHandler)(job.data, { attempt: job.attemptsMade + 1, jobId: job.id });
      },
      {
        connection,
        prefix,
        concurrency: opts.concurrency ?? 2,
        // A worker killed mid-job loses its lock; the job is then picked up again.
        lockDuration: 60_000,
        stalledInterval: 30_000,
        maxStalledCount: 3,
        settings: {
          backoffStrategy: (attemptsMade: number) => {
            const policy = options.retry?.[name];
            return policy ? retryDelay(policy, attemptsMade) : backoffMs * 2 ** (attemptsMade - 1);
          },
        },
      },
    );
    // Redis being away is an outage, reported once (onConnection), not a job failing.
    worker.on('error', (err) => {
      if (isConnectionError(err)) watch.failed(err);
      else options.onError?.(name, err, undefined, false);
    });
    worker.on('ready', () => watch.ok());
    worker.on('failed', (job, err) => {
      const final = !job || job.attemptsMade >= (job.opts.attempts ?? 1);
      options.onError?.(name, err, job?.data, final);
    });
    workers.push(worker);
  }
}

function inProcessRunner(options: JobRunnerOptions): JobRunner {
  const attempts = options.attempts ?? 5;
  const backoffMs = options.backoffMs ?? 2000;
  const handlers = new Map<string, JobHandler>();
  const waiting = new Map<
    string,
    { data: unknown; jobId?: string; attempt: number; maxAttempts: number; priority: number }[]
  >();
  /** Keeps a queue ordered as BullMQ orders it: by priority, then in the order added. */
  const place = <J extends { priority: number }>(list: J[], job: J) => {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid]!.priority <= job.priority) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, job);
  };
  const active = new Map<string, number>();
  const known = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let concurrency = 2;
  let closed = false;

  const drain = (name: string) => {
    const handler = handlers.get(name);
    const list = waiting.get(name);
    if (!handler || !list || closed) return;
    while ((active.get(name) ?? 0) < concurrency && list.length > 0) {
      const job = list.shift()!;
      active.set(name, (active.get(name) ?? 0) + 1);
      const holder: { run?: Promise<void> } = {};
      holder.run = (async () => {
        await Promise.resolve();
        try {
          await handler(job.data, { attempt: job.attempt, jobId: job.jobId });
          if (job.jobId) known.delete(`${name}/${job.jobId}`);
        } catch (err) {
          const error = err instanceof Error ? err : new Error(String(err));
          // Final only when the tries ran out; a runner closing just stops retrying here (the
          // start-up requeue of the next process picks the work up).
          const final = job.attempt >= job.maxAttempts;
          options.onError?.(name, error, job.data, final);
          const policy = options.retry?.[name];
          if (final || closed) {
            if (job.jobId) known.delete(`${name}/${job.jobId}`);
          } else {
            const timer = setTimeout(
              () => {
                timers.delete(timer);
                place(list, { ...job, attempt: job.attempt + 1 });
                drain(name);
              },
              policy ? retryDelay(policy, job.attempt) : backoffMs * 2 ** (job.attempt - 1),
            );
            timers.add(timer);
          }
        } finally {
          active.set(name, (active.get(name) ?? 1) - 1);
          if (holder.run) running.delete(holder.run);
          drain(name);
        }
      })();
      running.add(holder.run);
    }
  };

  return {
    mode: 'in-process',
    async enqueue(name, data, opts = {}) {
      if (closed) throw new Error('The job runner is closed');
      if (opts.jobId) {
        const key = `${name}/${opts.jobId}`;
        if (known.has(key)) return;
        known.add(key);
      }
      const job = {
        data,
        jobId: opts.jobId,
        attempt: 1,
        maxAttempts:
          opts.attempts ?? (options.retry?.[name] ? attemptsWithin(options.retry[name]!) : attempts),
        priority: priorityOf(opts.priority),
      };
      const list = waiting.get(name) ?? [];
      waiting.set(name, list);
      if (opts.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          place(list, job);
          drain(name);
        }, opts.delayMs);
        timers.add(timer);
      } else {
        place(list, job);
        // Let the caller's transaction finish before the handler reads what it wrote.
        setImmediate(() => drain(name));
      }
    },
    work(map, opts = {}) {
      concurrency = opts.concurrency ?? concurrency;
      for (const [name, handler] of Object.entries(map)) {
        handlers.set(name, handler as JobHandler);
        drain(name);
      }
    },
    async pending(name) {
      return (waiting.get(name)?.length ?? 0) + (active.get(name) ?? 0);
    },
    async ping() {},
    async idle(opts = {}) {
      await until(async () => {
        if (closed) return true;
        if (timers.size > 0 || running.size > 0) return false;
        for (const name of opts.queues ?? handlers.keys()) {
          if ((waiting.get(name)?.length ?? 0) > 0) return false;
        }
        return true;
      }, opts.timeoutMs);
    },
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      await Promise.allSettled([...running]);
    },
  };
}

/** Logs an outage once when it starts and once when Redis is back, with how many errors it raised. */
export function logRedisConnection(
  log: { error: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void },
  event: ConnectionEvent,
): void {
  if (event.state === 'down') {
    log.error(
      { reason: event.error.message },
      'Redis connection lost: jobs are stored and queued when it is back',
    );
  } else {
    log.info(
      { downForMs: event.downForMs, errors: event.errors },
      `Redis connection back after ${Math.round(event.downForMs / 1000)} s (${event.errors} connection errors)`,
    );
  }
}
