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
  enqueue: (itemId: string, run: string) => Promise<void>;
  /**
   * A pending item this old is queued again under its own run (30 s): its job was never added (Redis
   * was down when it was stored) or was lost with Redis. The job id makes this harmless when the job
   * is in fact still waiting.
   */
  pendingAfterMs?: number;
}

/** How old a pending item is before the sweep queues it again (its api had 30 s to queue it). */
export const DEFAULT_PENDING_AFTER_MS = 30_000;

export const STUCK_REASON = 'Processing took too long and was stopped. Please retry.';

/**
 * No item stays processing forever: one whose worker died (or whose job was lost, say while Redis was
 * down) is re-queued under a new run, and one that has used up its attempts is failed with a reason.
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
  // Pending items not yet stuck: queued again under the same run, so a job that is still waiting is
  // not doubled; a lost one comes back within a sweep of Redis returning.
  const pendingCutoff = new Date(Date.now() - (options.pendingAfterMs ?? DEFAULT_PENDING_AFTER_MS));
  const waiting = await db
    .selectFrom('knowledge_items')
    .select(['id', 'job_run'])
    .where('status', '=', 'pending')
    .where('updated_at', '<', pendingCutoff)
    .where('updated_at', '>=', cutoff)
    .orderBy('updated_at', 'asc')
    .limit(500)
    .execute();
  let waitingRequeued = 0;
  for (const item of waiting) {
    await options.enqueue(item.id, item.job_run ?? item.id);
    waitingRequeued++;
  }
  for (const item of stuck) {
    if (item.attempts >= options.maxAttempts) {
      if (await failStuckKnowledgeItem(db, item, cutoff, STUCK_REASON)) failed++;
      continue;
    }
    const run = ingestRunId(item.id, 'sweep');
    if (await requeueStuckKnowledgeItem(db, item, cutoff, run)) {
      await options.enqueue(item.id, run);
      requeued++;
    }
  }
  return { requeued, failed, waitingRequeued };
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
