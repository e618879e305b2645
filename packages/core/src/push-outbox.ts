import type { PushJob } from '@fanpilot/contracts';
import type { Db } from './db.ts';

/** The NOTIFY channel a new outbox row wakes the push role on. */
export const PUSH_OUTBOX_CHANNEL = 'fp_push';

/**
 * Takes up to `limit` pushes from the outbox (written by the triggers on messages and notices when
 * they commit) and hands them to `ask`, in the order they were committed. The rows leave the outbox
 * only when `ask` succeeded: a failure (the queue down) rolls back and they wait for the next
 * drain. Rows another process is taking are skipped, so several api processes drain side by side;
 * a push asked for twice is one job (its job id). Returns how many were taken.
 */
export async function takePushOutbox(
  db: Db,
  ask: (jobs: Omit<PushJob, 'subscriptionId'>[]) => Promise<void>,
  limit = 200,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('push_outbox')
      .select(['id', 'kind', 'ref'])
      .orderBy('id')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (rows.length === 0) return 0;
    await ask(rows.map((row) => ({ kind: row.kind, id: row.ref })));
    await trx
      .deleteFrom('push_outbox')
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    return rows.length;
  });
}

/** Pushes waiting in the outbox (for the runtime's idle signal and tests). */
export async function pushOutboxSize(db: Db): Promise<number> {
  const row = await db
    .selectFrom('push_outbox')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
