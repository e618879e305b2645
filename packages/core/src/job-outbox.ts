import type { JobDefinition } from '@fanpilot/contracts';
import { sql } from 'kysely';
import type { Db } from './db.ts';

/** The NOTIFY channel a committed job wakes the relay on (record 0077). */
export const JOB_OUTBOX_CHANNEL = 'fp_jobs';

export interface WriteJobOptions {
  /** Lower runs first (as the queue takes it); none runs before every prioritised job. */
  priority?: number;
}

/**
 * Asks for a job in the caller's transaction (record 0077): it is relayed to the queue once the
 * transaction commits, and never if it rolls back. The payload is checked against the job's schema.
 * A job whose key is already waiting in the outbox is not written twice.
 */
export async function writeJob<T>(
  db: Db,
  job: JobDefinition<T>,
  payload: T,
  options: WriteJobOptions = {},
): Promise<void> {
  const data = job.payload.parse(payload);
  const key = job.key(data);
  await sql`insert into job_outbox (name, payload, job_key, priority)
    values (${job.name}, ${JSON.stringify(data)}::jsonb, ${key}, ${options.priority ?? null})
    on conflict (name, job_key) where job_key is not null do nothing`.execute(db);
  // Delivered when the transaction commits (and dropped with it on a rollback).
  await sql`select pg_notify(${JOB_OUTBOX_CHANNEL}, '')`.execute(db);
}

/** A committed job as the relay hands it to the queue. */
export interface OutboxJob {
  name: string;
  payload: object;
  /** The queue's job id: the same for a row relayed twice, so it runs once. */
  jobId: string;
  priority: number | undefined;
}

/**
 * Takes up to `limit` committed jobs, oldest first, and hands them to `relay`. The rows leave the
 * outbox in the same transaction, only when `relay` succeeded: a failure (the queue down, the
 * process gone) leaves them for the next relay. Rows another relay holds are skipped, so any number
 * of processes relay side by side. Returns how many were taken.
 */
export async function takeJobOutbox(
  db: Db,
  relay: (jobs: OutboxJob[]) => Promise<void>,
  limit = 200,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('job_outbox')
      .select(['id', 'name', 'payload', 'job_key', 'priority'])
      .orderBy('id')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (rows.length === 0) return 0;
    await relay(
      rows.map((row) => ({
        name: row.name,
        payload: (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as object,
        jobId: row.job_key ?? `${row.name}-${row.id}`,
        priority: row.priority ?? undefined,
      })),
    );
    await trx
      .deleteFrom('job_outbox')
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    return rows.length;
  });
}

/** Jobs committed and not yet relayed (for the runtime's idle signal and tests). */
export async function jobOutboxSize(db: Db): Promise<number> {
  const row = await db
    .selectFrom('job_outbox')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
