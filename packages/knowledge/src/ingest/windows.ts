import { windowTextsOf } from '../focus.ts';
import type { Embedder } from './embeddings.ts';

/** Chunk vectors and, for each long chunk, its windows' vectors (record 0090). */
export interface ChunkVectors {
  vectors: number[][];
  /** Per chunk (in order), its windows' vectors; empty for a short chunk. */
  windows: number[][][];
}

/**
 * Embeds chunks and their windows (`windowTextsOf`) with one embedder, in one call so its batching
 * (the local encoder's threads and batches of 8, an API client's requests) covers both: ingestion,
 * the re-embed sweep and the quality tests store the same vectors.
 */
export async function embedChunks(embedder: Embedder, contents: string[]): Promise<ChunkVectors> {
  const texts = contents.map((c) => windowTextsOf(c));
  const flat = texts.flat();
  const all = await embedder.embedDocuments([...contents, ...flat]);
  if (all.length !== contents.length + flat.length) throw new Error('embedder returned too few vectors');
  let at = contents.length;
  const windows = texts.map((t) => {
    const vectors = all.slice(at, at + t.length);
    at += t.length;
    return vectors;
  });
  return { vectors: all.slice(0, contents.length), windows };
}
