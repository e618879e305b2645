import { parentPort } from 'node:worker_threads';
import { IngestError, reasonOf } from './errors.ts';
import { type ParseTask, runParseTask } from './parse-task.ts';

// A parser thread: takes one task at a time from the pool and answers with chunks or a reason.
parentPort?.on('message', async (message: { id: number; task: ParseTask }) => {
  try {
    const result = await runParseTask(message.task);
    parentPort?.postMessage({ id: message.id, ok: true, result });
  } catch (err) {
    parentPort?.postMessage({
      id: message.id,
      ok: false,
      reason: reasonOf(err),
      permanent: err instanceof IngestError ? err.permanent : true,
    });
  }
});
