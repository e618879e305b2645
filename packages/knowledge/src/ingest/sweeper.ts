import { failStuckKnowledgeItem, requeueStuckKnowledgeItem } from '@fanpilot/core';
import type { Database } from '@fanpilot/db';
import { runEvery } from '@fanpilot/jobs';
import type { Kysely } from 'kysely';
import { ingestRunId } from './queue.ts';

export interface SweepOptions {
  /** An item processing (or pending) longer than this is looked at again. */
  stuckAfterMs: number;
  /** Items that have run this many times are failed instead of re-queued. */
  maxAttempts: number;
}

export const STUCK_REASON = 'Processing took too long and was stopped. Please retry.';

/**
 * No item stays processing forever: one whose worker died (or whose job was lost with Redis's data)
 * is re-queued under a new run, and one that has used up its attempts is failed with a reason. An
 * item never queued needs no sweep: its job is committed with it (record 0077).
 */
export async function sweepStuckItems(db: Kysely<Database>, options: SweepOptions) {
  const cutoff = new Date(Date.now() - options.stuckAfterMs);
  const stuck = await db
    .selectFrom('knowledge_items')
    .select(['id', 'status', 'attempts'])
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'processing'), eb('updated_at', '<', cutoff)]),
        eb.and([eb('status', '=', 'pending'), eb('updated_at', '<', cutoff)]),
      ]),
    )
    .limit(500)
    .execute();
  let requeued = 0;
  let failed = 0;
  for (const item of stuck) {
    if (item.attempts >= options.maxAttempts) {
      if (await failStuckKnowledgeItem(db, item, cutoff, STUCK_REASON)) failed++;
      continue;
    }
    // The new run asks for its ingest job in the same statement (record 0077).
    if (await requeueStuckKnowledgeItem(db, item, cutoff, ingestRunId(item.id, 'sweep'))) requeued++;
  }
  return { requeued, failed };
}

/**
 * Sweeps now and then every `intervalMs`; returns a stop function. A failing sweep (database or
 * Redis away) is reported and tried again at the next tick.
 */
export function startSweeper(
  db: Kysely<Database>,
  options: SweepOptions & { intervalMs?: number; onError?: (error: unknown) => void },
): () => void {
  return runEvery(
    options.intervalMs ?? 60_000,
    async () => {
      await sweepStuckItems(db, options);
    },
    { now: true, onError: options.onError },
  );
}
