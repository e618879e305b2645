import { Worker } from 'node:worker_threads';
import type { ChunkDraft } from './chunk.ts';
import { IngestError, permanent, transient } from './errors.ts';
import type { ParseResult, ParseTask } from './parse-task.ts';

export interface ParserPoolOptions {
  /** Threads at most; each parses one task at a time, the others wait in line. */
  size: number;
  /**
   * Budget of one task, in the thread's own CPU time (a busy machine, or the lowered priority of
   * parser threads, does not fail a file that would have been read); past it the thread is ended
   * and the item fails. Wall-clock time is capped too, at three times the budget.
   */
  timeoutMs: number;
  /**
   * Memory of each thread: its JavaScript heap and the buffers it holds (pdf.js keeps a stream's
   * inflated bytes outside the heap). A file that needs more (a decompression bomb, or a document
   * too big to read) ends the thread and fails its item, never the process.
   */
  memoryMb: number;
  /** How often a busy thread's memory is read (default 50 ms). */
  memoryCheckMs?: number;
  workerUrl?: URL;
}

export interface ParserPool {
  run: (task: ParseTask, signal?: AbortSignal) => Promise<ParseResult>;
  close: () => Promise<void>;
}

/** The reason an item fails with when its parser ran out of memory. */
export const tooLargeReason = (memoryMb: number) =>
  `This file is too large or complex to read (it needed more than ${memoryMb} MB).`;
/** The reason an item fails with when its parser ran out of time. */
export const tooSlowReason = (timeoutMs: number) =>
  `This file took too long to read (more than ${Math.max(1, Math.round(timeoutMs / 1000))} seconds) and was stopped.`;

/**
 * The parser thread's entry: beside this module. From the sources (vitest, tsx) that is
 * parse-worker.ts; from this package's dist/ (node, the built api and worker), the parse-worker.js
 * that tsup builds beside index.js (tsup.config.ts lists it as an entry).
 */
export function parseWorkerUrl(): URL {
  return new URL(
    import.meta.url.endsWith('.ts') ? './parse-worker.ts' : './parse-worker.js',
    import.meta.url,
  );
}

interface Pending {
  task: ParseTask;
  resolve: (r: ParseResult) => void;
  reject: (e: Error) => void;
  signal: AbortSignal | undefined;
}

interface Running extends Pending {
  id: number;
  timer: NodeJS.Timeout;
  watch: NodeJS.Timeout;
  settled: boolean;
  chunks: ChunkDraft[];
}

interface Slot {
  worker: Worker;
  current: Running | null;
}

type FromThread =
  | { id: number; chunks: ChunkDraft[] }
  | { id: number; ok: true; result: Omit<ParseResult, 'chunks'> }
  | { id: number; ok: false; reason?: string; permanent?: boolean };

/**
 * Parsing (pdf.js, mammoth, word-extractor, Readability, the splitter) runs in worker threads so the
 * thread that runs the jobs (the api's own, on embedded defaults) stays free to answer requests and
 * renew its BullMQ lock. Each thread's memory and time are capped; a thread that runs out of either,
 * or dies, fails its item with a reason a creator can read, and a fresh thread takes the next task.
 * The chunks come back in batches, so no single message takes long to read on the calling thread.
 */
export function createParserPool(options: ParserPoolOptions): ParserPool {
  const url = options.workerUrl ?? parseWorkerUrl();
  const capBytes = options.memoryMb * 1024 * 1024;
  const slots: Slot[] = [];
  const queue: Pending[] = [];
  let nextId = 1;
  let closed = false;

  const settle = (slot: Slot, job: Running) => {
    job.settled = true;
    clearTimeout(job.timer);
    clearInterval(job.watch);
    if (slot.current === job) slot.current = null;
  };

  /** Ends a busy thread and fails its task with `error`; the slot is replaced on demand. */
  const stop = (slot: Slot, id: number, error: IngestError) => {
    const job = slot.current;
    if (!job || job.id !== id || job.settled) return;
    settle(slot, job);
    job.reject(error);
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
    void slot.worker.terminate();
    dispatch();
  };

  const spawn = (): Slot => {
    const worker = new Worker(url, {
      // The heap's own cap, a little above the budget: the memory watch below usually ends the
      // thread first (it counts buffers too); V8 ends it if a burst of allocation gets past it.
      resourceLimits: {
        maxOldGenerationSizeMb: options.memoryMb,
        maxYoungGenerationSizeMb: Math.min(32, Math.max(8, Math.floor(options.memoryMb / 8))),
      },
    });
    const slot: Slot = { worker, current: null };
    worker.on('message', (message: FromThread) => {
      const job = slot.current;
      if (!job || job.id !== message.id || job.settled) return;
      if ('chunks' in message) {
        for (const c of message.chunks) job.chunks.push(c);
        return;
      }
      settle(slot, job);
      worker.unref();
      if (message.ok) job.resolve({ ...message.result, chunks: job.chunks });
      else
        job.reject(
          new IngestError(message.reason ?? 'The file could not be read.', {
            permanent: message.permanent,
          }),
        );
      dispatch();
    });
    worker.on('error', (err: Error & { code?: string }) => {
      const job = slot.current;
      if (!job || job.settled) return;
      settle(slot, job);
      job.reject(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? permanent(tooLargeReason(options.memoryMb), err)
          : transient('The parser stopped unexpectedly. It will be retried.', err),
      );
    });
    worker.on('exit', () => {
      const job = slot.current;
      if (job && !job.settled) {
        settle(slot, job);
        job.reject(transient('The parser stopped unexpectedly. It will be retried.'));
      }
      const i = slots.indexOf(slot);
      if (i >= 0) slots.splice(i, 1);
      dispatch();
    });
    slots.push(slot);
    return slot;
  };

  const start = (slot: Slot, job: Pending) => {
    if (job.signal?.aborted) {
      job.reject(transient('Processing was stopped.'));
      return;
    }
    const id = nextId++;
    // The thread's CPU time so far (µs): the task's budget counts from here.
    let cpuAtStart: number | null = null;
    const cpuOf = () =>
      typeof slot.worker.cpuUsage === 'function'
        ? slot.worker.cpuUsage().then(
            (u) => u.user + u.system,
            () => null,
          )
        : Promise.resolve(null);
    void cpuOf().then((us) => {
      cpuAtStart = us;
    });
    const tooSlow = () => permanent(tooSlowReason(options.timeoutMs));
    const running: Running = {
      ...job,
      id,
      settled: false,
      chunks: [],
      timer: setTimeout(() => stop(slot, id, tooSlow()), options.timeoutMs * 3),
      // The thread's heap and the buffers it holds, read from here (the thread may be too busy to
      // report): over the budget, the thread is ended before it takes the process's memory.
      watch: setInterval(() => {
        slot.worker.getHeapStatistics().then(
          (s) => {
            if (s.used_heap_size + (s.external_memory ?? 0) > capBytes) {
              stop(slot, id, permanent(tooLargeReason(options.memoryMb)));
            }
          },
          () => {},
        );
        if (cpuAtStart === null) return;
        const from = cpuAtStart;
        void cpuOf().then((us) => {
          if (us !== null && us - from > options.timeoutMs * 1000) stop(slot, id, tooSlow());
        });
      }, options.memoryCheckMs ?? 50),
    };
    slot.current = running;
    slot.worker.ref();
    // The bytes are copied once and moved to the thread, not cloned again.
    const bytes = new Uint8Array(job.task.bytes);
    slot.worker.postMessage({ id, task: { ...job.task, bytes } }, [bytes.buffer]);
  };

  function dispatch() {
    if (closed) return;
    while (queue.length > 0) {
      const idle =
        slots.find((s) => s.current === null) ?? (slots.length < options.size ? spawn() : undefined);
      if (!idle) return;
      start(idle, queue.shift()!);
    }
  }

  return {
    run(task, signal) {
      if (closed) return Promise.reject(new Error('The parser pool is closed'));
      return new Promise<ParseResult>((resolve, reject) => {
        queue.push({ task, resolve, reject, signal });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(transient('Processing was stopped.'));
      for (const slot of slots) {
        if (slot.current && !slot.current.settled) {
          const job = slot.current;
          settle(slot, job);
          job.reject(transient('Processing was stopped.'));
        }
      }
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
