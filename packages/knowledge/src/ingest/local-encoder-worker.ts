import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { encodeLocally } from './local-encoder.ts';

// An encoder thread yields the CPU to the thread that answers requests (as the parser threads do).
try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
} catch {
  // Not Linux, or not allowed.
}

parentPort?.on('message', async (message: { id: number; texts: string[] }) => {
  try {
    const vectors = await encodeLocally(message.texts);
    parentPort?.postMessage({ id: message.id, vectors });
  } catch (err) {
    parentPort?.postMessage({ id: message.id, error: (err as Error)?.message ?? String(err) });
  }
});
