import { INGEST_QUEUE, type IngestJob } from '@fanpilot/contracts';
import type { JobRunner } from '@fanpilot/jobs';

export type RunReason = 'retry' | 'resync' | 'sweep';

/** The run (and BullMQ job id) of an item: its id the first time, a suffixed id when re-run. */
export const ingestRunId = (itemId: string, reason?: RunReason) =>
  reason ? `${itemId}-${reason}-${Date.now().toString(36)}` : itemId;

/** Enqueues an item's ingest; the job id deduplicates while the same run waits or runs. */
export async function enqueueIngest(jobs: Pick<JobRunner, 'enqueue'>, itemId: string, run: string) {
  const data: IngestJob = { knowledgeItemId: itemId, run };
  await jobs.enqueue(INGEST_QUEUE, data, { jobId: run });
}
