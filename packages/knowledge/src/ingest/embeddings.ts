import type { OpenAIEmbeddings } from '@langchain/openai';
import { LRUCache } from 'lru-cache';
import { createLocalEmbedder } from './local-encoder.ts';

export interface Embedder {
  /**
   * Which embedder made a vector (the model name, or `local:…` for the local encoder). Stored with
   * each item (the suffix of its content hash); items made by another embedder are re-embedded in
   * the background (`reembedStale`).
   */
  model: string;
  embedDocuments: (texts: string[]) => Promise<number[][]>;
  embedQuery: (text: string) => Promise<number[]>;
  /**
   * Encodes texts while the embedder has nothing else to do, a few at a time and after any other
   * call (the local encoder's threads). Only an embedder that costs nothing but idle time has it: a
   * provider's would spend tokens on texts nobody asked for.
   */
  embedWhenIdle?: (texts: string[]) => Promise<number[][]>;
}

export interface EmbeddingEnv {
  OPENAI_API_KEY?: string | undefined;
  OPENAI_BASE_URL?: string | undefined;
  EMBEDDING_MODEL?: string | undefined;
  /**
   * Which embedder: `auto` (default: the OpenAI-compatible API when OPENAI_API_KEY is set, else the
   * local encoder), `api`, `local`, or `off` (full-text search only).
   */
  EMBEDDINGS?: string | undefined;
}

/** The embeddings choice an environment makes (docs/knowledge.md). */
export function embeddingsMode(env: EmbeddingEnv): 'api' | 'local' | 'off' {
  const mode = (env.EMBEDDINGS ?? 'auto').trim().toLowerCase() || 'auto';
  if (mode === 'off' || mode === 'none') return 'off';
  if (mode === 'local') return 'local';
  if (mode === 'api' || mode === 'openai') return env.OPENAI_API_KEY ? 'api' : 'off';
  return env.OPENAI_API_KEY ? 'api' : 'local';
}

/**
 * The embedder an environment asks for: an OpenAI-compatible embeddings API through langchain when a
 * key is configured, else the local sentence encoder; null when EMBEDDINGS=off.
 */
export function createEmbedder(env: EmbeddingEnv): Embedder | null {
  const mode = embeddingsMode(env);
  if (mode === 'off') return null;
  if (mode === 'local') return createLocalEmbedder();
  const model = env.EMBEDDING_MODEL || 'text-embedding-3-small';
  // The client (langchain's and OpenAI's SDKs) is loaded with the first text embedded, not at start
  // (issue 39: the api's memory at rest).
  let client: Promise<OpenAIEmbeddings> | null = null;
  const ready = () => {
    if (!client) {
      client = import('@langchain/openai').then(
        ({ OpenAIEmbeddings }) =>
          new OpenAIEmbeddings({
            apiKey: env.OPENAI_API_KEY,
            model,
            batchSize: 256,
            maxRetries: 2,
            timeout: 30_000,
            ...(env.OPENAI_BASE_URL ? { configuration: { baseURL: env.OPENAI_BASE_URL } } : {}),
          }),
      );
      // A failed load is tried again by the next text.
      client.catch(() => {
        client = null;
      });
    }
    return client;
  };
  return {
    model,
    embedDocuments: async (texts) => (await ready()).embedDocuments(texts),
    embedQuery: async (text) => (await ready()).embedQuery(text),
  };
}

export { vectorLiteral } from '@fanpilot/core';

/** Question vectors kept per embedder: a question is embedded once however many steps ask. */
const QUERY_CACHE_ENTRIES = 500;

/**
 * An embedder whose question vectors are remembered (the last QUERY_CACHE_ENTRIES texts) and shared
 * while in flight: one answer matches the creator's corrections and searches the knowledge with the
 * same question, and both ask at once. A failed embedding is not remembered.
 */
export function withQueryCache(embedder: Embedder): Embedder {
  const vectors = new LRUCache<string, number[]>({
    max: QUERY_CACHE_ENTRIES,
    fetchMethod: (text) => embedder.embedQuery(text),
  });
  return {
    ...embedder,
    embedQuery: async (text) => {
      const vector = await vectors.fetch(text);
      if (!vector) throw new Error('The embedder returned no vector.');
      return vector;
    },
  };
}

const embedders = new Map<string, Embedder | null>();
/** One embedder per configuration (the answers' retrieval asks for it on every question). */
export function embedderFor(env: EmbeddingEnv): Embedder | null {
  const key = `${embeddingsMode(env)}|${env.OPENAI_API_KEY ?? ''}|${env.OPENAI_BASE_URL ?? ''}|${env.EMBEDDING_MODEL ?? ''}`;
  if (!embedders.has(key)) {
    const embedder = createEmbedder(env);
    embedders.set(key, embedder && withQueryCache(embedder));
  }
  return embedders.get(key) ?? null;
}
