import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, threadId } from 'node:worker_threads';
import { IngestError, reasonOf } from './errors.ts';
import { type ParseTask, runParseTask } from './parse-task.ts';

/**
 * A parser thread yields the CPU to the thread that answers requests: on Linux, where a thread has
 * a nice value of its own, it lowers its own (10, as `nice` does by default). Elsewhere it runs as is.
 */
export const PARSER_NICE = 10;
try {
  // /proc/thread-self is "<pid>/task/<tid>": the kernel's id of this very thread.
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, PARSER_NICE);
} catch {
  // Not Linux, or not allowed: parsing still runs off the requests' thread.
}

/** Chunks per message to the pool: each message is read on the job's thread in one go, so it stays small. */
const CHUNKS_PER_MESSAGE = 200;

// A parser thread: takes one task at a time from the pool and answers with chunks (in batches,
// then the rest of the result) or a reason.
parentPort?.on('message', async (message: { id: number; task: ParseTask }) => {
  try {
    const { chunks, ...rest } = await runParseTask(message.task);
    for (let at = 0; at < chunks.length; at += CHUNKS_PER_MESSAGE) {
      parentPort?.postMessage({ id: message.id, chunks: chunks.slice(at, at + CHUNKS_PER_MESSAGE) });
    }
    parentPort?.postMessage({ id: message.id, ok: true, result: { ...rest, threadId } });
  } catch (err) {
    parentPort?.postMessage({
      id: message.id,
      ok: false,
      reason: reasonOf(err),
      permanent: err instanceof IngestError ? err.permanent : true,
    });
  }
});
