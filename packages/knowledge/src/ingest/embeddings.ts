import { OpenAIEmbeddings } from '@langchain/openai';

export interface Embedder {
  model: string;
  embedDocuments: (texts: string[]) => Promise<number[][]>;
  embedQuery: (text: string) => Promise<number[]>;
}

export interface EmbeddingEnv {
  OPENAI_API_KEY?: string | undefined;
  OPENAI_BASE_URL?: string | undefined;
  EMBEDDING_MODEL?: string | undefined;
}

/** OpenAI embeddings through langchain when a key is configured; null otherwise (full-text only). */
export function createEmbedder(env: EmbeddingEnv): Embedder | null {
  if (!env.OPENAI_API_KEY) return null;
  const model = env.EMBEDDING_MODEL || 'text-embedding-3-small';
  const client = new OpenAIEmbeddings({
    apiKey: env.OPENAI_API_KEY,
    model,
    batchSize: 256,
    maxRetries: 2,
    timeout: 30_000,
    ...(env.OPENAI_BASE_URL ? { configuration: { baseURL: env.OPENAI_BASE_URL } } : {}),
  });
  return {
    model,
    embedDocuments: (texts) => client.embedDocuments(texts),
    embedQuery: (text) => client.embedQuery(text),
  };
}

export { vectorLiteral } from '@fanpilot/core';

const embedders = new Map<string, Embedder | null>();
/** One embedder per configuration (the answers' retrieval asks for it on every question). */
export function embedderFor(env: EmbeddingEnv): Embedder | null {
  const key = `${env.OPENAI_API_KEY ?? ''}|${env.OPENAI_BASE_URL ?? ''}|${env.EMBEDDING_MODEL ?? ''}`;
  if (!embedders.has(key)) embedders.set(key, createEmbedder(env));
  return embedders.get(key) ?? null;
}
