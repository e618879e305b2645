import type { KnowledgeItemRow } from '@fanpilot/db';
import type { Db } from './db.ts';

// A knowledge item's run through ingestion: claimed by one worker run, then ready, failed or queued
// again. Each write names the run it belongs to, so a run that a newer one (a retry, a re-sync)
// superseded changes nothing; an item without a run (older rows) is anyone's.

const ownedBy = (db: Db, id: string, run: string | null) => {
  let q = db.updateTable('knowledge_items').where('id', '=', id);
  if (run) q = q.where((eb) => eb.or([eb('job_run', '=', run), eb('job_run', 'is', null)]));
  return q;
};

/**
 * Claims the item for `run` in one statement: only a pending (or stalled processing) item whose run
 * this is; a finished run redelivered, a superseded run or a deleted item gets undefined.
 */
export function claimKnowledgeItem(
  db: Db,
  id: string,
  run: string | null,
): Promise<KnowledgeItemRow | undefined> {
  return ownedBy(db, id, run)
    .where('status', 'in', ['pending', 'processing'])
    .set((eb) => ({
      status: 'processing',
      started_at: new Date(),
      updated_at: new Date(),
      attempts: eb('attempts', '+', 1),
      error: null,
    }))
    .returningAll()
    .executeTakeFirst();
}

/** The run found the content unchanged: the item is ready again with the chunks it has. Returns rows marked. */
export async function keepKnowledgeChunks(
  db: Db,
  id: string,
  run: string | null,
  ready: { status: 'completed' | 'active'; title?: string | null | undefined },
): Promise<number> {
  const kept = await ownedBy(db, id, run)
    .where('status', '=', 'processing')
    .set({
      status: ready.status,
      error: null,
      started_at: null,
      processed_at: new Date(),
      updated_at: new Date(),
      ...(ready.title ? { title: ready.title.slice(0, 500) } : {}),
    })
    .executeTakeFirst();
  return Number(kept.numUpdatedRows);
}

/** The run failed: `final` fails the item with `reason`; otherwise it waits (pending) for the next attempt. */
export async function failKnowledgeRun(
  db: Db,
  id: string,
  run: string | null,
  failure: { final: boolean; reason: string; permanent?: boolean },
): Promise<void> {
  await ownedBy(db, id, run)
    .set({
      status: failure.final ? 'failed' : 'pending',
      error: failure.reason,
      failed_for_good: failure.final && failure.permanent === true,
      started_at: null,
      updated_at: new Date(),
    })
    .execute();
}

/** A stuck item (no change since `cutoff`) that has used up its attempts is failed with `reason`. */
export async function failStuckKnowledgeItem(
  db: Db,
  item: { id: string; status: KnowledgeItemRow['status'] },
  cutoff: Date,
  reason: string,
): Promise<boolean> {
  const r = await db
    .updateTable('knowledge_items')
    .set({ status: 'failed', error: reason, started_at: null, updated_at: new Date() })
    .where('id', '=', item.id)
    .where('status', '=', item.status)
    .where('updated_at', '<', cutoff)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** A stuck item (no change since `cutoff`) is pending again under the new `run`; whether it was. */
export async function requeueStuckKnowledgeItem(
  db: Db,
  item: { id: string; status: KnowledgeItemRow['status'] },
  cutoff: Date,
  run: string,
): Promise<boolean> {
  const r = await db
    .updateTable('knowledge_items')
    .set({ status: 'pending', job_run: run, started_at: null, updated_at: new Date() })
    .where('id', '=', item.id)
    .where('status', '=', item.status)
    .where('updated_at', '<', cutoff)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
