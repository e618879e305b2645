import { Worker } from 'node:worker_threads';
import { IngestError, permanent, transient } from './errors.ts';
import type { ParseResult, ParseTask } from './parse-task.ts';

export interface ParserPoolOptions {
  /** Threads at most; each parses one task at a time. */
  size: number;
  /** Budget of one task; past it the thread is ended and the item fails. */
  timeoutMs: number;
  /** Heap of each thread; a decompression bomb runs into it and fails its item, not the process. */
  memoryMb: number;
  workerUrl?: URL;
}

export interface ParserPool {
  run: (task: ParseTask, signal?: AbortSignal) => Promise<ParseResult>;
  close: () => Promise<void>;
}

/** The parser thread's entry: beside this module in source, and in this package's dist/ when built. */
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

interface Slot {
  worker: Worker;
  current: (Pending & { id: number; timer: NodeJS.Timeout; settled: boolean }) | null;
}

/**
 * Parsing (pdf.js, mammoth, word-extractor, Readability, the splitter) runs in worker threads so the
 * job's main thread stays free to renew its BullMQ lock and serve health checks.
 */
export function createParserPool(options: ParserPoolOptions): ParserPool {
  const url = options.workerUrl ?? parseWorkerUrl();
  const slots: Slot[] = [];
  const queue: Pending[] = [];
  let nextId = 1;
  let closed = false;

  const spawn = (): Slot => {
    const worker = new Worker(url, {
      resourceLimits: { maxOldGenerationSizeMb: options.memoryMb, maxYoungGenerationSizeMb: 64 },
    });
    const slot: Slot = { worker, current: null };
    const fail = (error: Error) => {
      const job = slot.current;
      if (job && !job.settled) {
        job.settled = true;
        clearTimeout(job.timer);
        job.reject(error);
      }
      slot.current = null;
    };
    worker.on(
      'message',
      (message: { id: number; ok: boolean; result?: ParseResult; reason?: string; permanent?: boolean }) => {
        const job = slot.current;
        if (!job || job.id !== message.id || job.settled) return;
        job.settled = true;
        clearTimeout(job.timer);
        slot.current = null;
        worker.unref();
        if (message.ok) job.resolve(message.result!);
        else
          job.reject(
            new IngestError(message.reason ?? 'The file could not be read.', {
              permanent: message.permanent,
            }),
          );
        dispatch();
      },
    );
    worker.on('error', (err: Error & { code?: string }) => {
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        fail(
          permanent(
            'This file expands to far more data than it holds (it may be a compression bomb) and was refused.',
            err,
          ),
        );
      } else {
        fail(transient('The parser stopped unexpectedly. It will be retried.', err));
      }
    });
    worker.on('exit', () => {
      fail(transient('The parser stopped unexpectedly. It will be retried.'));
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
    const timer = setTimeout(() => {
      const current = slot.current;
      if (current?.id !== id || current.settled) return;
      current.settled = true;
      slot.current = null;
      job.reject(permanent('This file took too long to process and was stopped.'));
      void slot.worker.terminate();
    }, options.timeoutMs);
    slot.current = { ...job, id, timer, settled: false };
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
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
