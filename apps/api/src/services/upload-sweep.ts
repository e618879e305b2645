import type { PeriodicTask } from '@fanpilot/background';
import { profileImageInUse } from '@fanpilot/core';
import type { Database } from '@fanpilot/db';
import { PENDING_UPLOAD_PREFIX } from '@fanpilot/storage';
import type { Kysely } from 'kysely';
import type { Storage } from '../plugins/storage.ts';
import { KNOWLEDGE_UPLOAD_PREFIX } from './uploads.ts';

/** Uploads nobody uses are kept this long (a creator may still be filling in the signup form). */
export const UNUSED_UPLOAD_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** How often the embedded store is swept. */
export const UPLOAD_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Deletes uploads older than `maxAgeMs` that nothing refers to: every pending profile image
 * (uploads/pending/…) and knowledge upload (knowledge-uploads/…, copied under knowledge/ when
 * accepted), and accepted profile images (uploads/{creator}/…) that are no creator's image any more.
 * What compose's bucket lifecycle rule does for MinIO, for the embedded store, which has none.
 */
export async function sweepUnusedUploads(
  db: Kysely<Database>,
  storage: Storage,
  options: { maxAgeMs?: number; now?: number } = {},
): Promise<string[]> {
  const cutoff = (options.now ?? Date.now()) - (options.maxAgeMs ?? UNUSED_UPLOAD_MAX_AGE_MS);
  const old = (o: { lastModified: Date | undefined }) => (o.lastModified?.getTime() ?? 0) <= cutoff;
  const removed: string[] = [];
  const remove = async (key: string) => {
    await storage.remove(key);
    removed.push(key);
  };
  for (const prefix of [PENDING_UPLOAD_PREFIX, `${KNOWLEDGE_UPLOAD_PREFIX}/`]) {
    for await (const object of storage.list(prefix)) if (old(object)) await remove(object.key);
  }
  for await (const object of storage.list('uploads/')) {
    if (object.key.startsWith(PENDING_UPLOAD_PREFIX) || !old(object)) continue;
    if (!(await profileImageInUse(db, object.key))) await remove(object.key);
  }
  return removed;
}

/** The sweep as a timer of the background runtime: every UPLOAD_SWEEP_INTERVAL_MS, and once at start. */
export function uploadSweep(
  db: Kysely<Database>,
  storage: Storage,
  intervalMs = UPLOAD_SWEEP_INTERVAL_MS,
): PeriodicTask {
  return {
    name: 'upload sweep',
    intervalMs,
    now: true,
    task: async () => {
      await sweepUnusedUploads(db, storage);
    },
  };
}
