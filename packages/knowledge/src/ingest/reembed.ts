import { ensureVectorIndex, hasVectorColumn, replaceItemVectors } from '@fanpilot/core';
import type { Database } from '@fanpilot/db';
import { runEvery } from '@fanpilot/jobs';
import type { Kysely } from 'kysely';
import type { Embedder } from './embeddings.ts';
import { embedChunks } from './windows.ts';

/**
 * Which embedder made an item's vectors: the suffix of its content hash (`<sha256>:<embedder>`, set by
 * the ingest handler; `text` when it has none).
 */
export const embedderOfHash = (hash: string | null) => {
  if (!hash) return null;
  const at = hash.indexOf(':');
  return at < 0 ? null : hash.slice(at + 1);
};

export interface ReembedOptions {
  /** Items re-embedded per call (the rest wait for the next one). */
  items?: number;
  /** Called between items; defaults to yielding to the event loop. */
  pause?: () => Promise<void>;
}

/**
 * Re-embeds ready items whose vectors another embedder made (or that have none), one item at a time:
 * the embedder was changed (another model, another size, or the local encoder in place of an API).
 * Retrieval keeps working meanwhile: vectors of another size are never compared with the question's
 * (each size has its own index), an item's vectors are used only when its embedder is the one asking,
 * and full-text search covers every item throughout. An item that is re-synced meanwhile is left to
 * its new run. Active items stored before long chunks' windows were (record 0090) are re-embedded
 * once with them. Returns how many items and chunks it re-embedded.
 */
export async function reembedStale(
  db: Kysely<Database>,
  embedder: Embedder,
  options: ReembedOptions = {},
): Promise<{ items: number; chunks: number }> {
  if (!(await hasVectorColumn(db))) return { items: 0, chunks: 0 };
  const pause = options.pause ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));
  const stale = await db
    .selectFrom('knowledge_items')
    .select(['id', 'content_hash', 'updated_at'])
    .where('status', 'in', ['completed', 'active'])
    .where((eb) =>
      eb.or([
        eb('content_hash', 'is', null),
        eb('content_hash', 'not like', `%:${escapeLike(embedder.model)}`),
        // Stored before windows were (record 0090): re-embedded once to add them.
        eb.and([eb('status', '=', 'active'), eb('windowed', '=', false)]),
      ]),
    )
    .orderBy('id')
    .limit(options.items ?? 20)
    .execute();
  let items = 0;
  let chunks = 0;
  for (const item of stale) {
    const rows = await db
      .selectFrom('chunks')
      .select(['id', 'content'])
      .where('knowledge_item_id', '=', item.id)
      .orderBy('ordinal')
      .execute();
    const { vectors, windows } =
      rows.length > 0
        ? await embedChunks(
            embedder,
            rows.map((r) => r.content),
          )
        : { vectors: [], windows: [] };
    const dimensions = vectors[0]?.length ?? 0;
    const done = await replaceItemVectors(db, {
      itemId: item.id,
      readHash: item.content_hash,
      embedderId: embedder.model,
      vectors: rows.map((r, i) => ({ chunkId: String(r.id), vector: vectors[i] ?? [] })),
      windows: rows.flatMap((r, i) =>
        windows[i]?.length ? [{ chunkId: String(r.id), vectors: windows[i]! }] : [],
      ),
    });
    if (done) {
      items++;
      chunks += rows.length;
      if (dimensions > 0) {
        await ensureVectorIndex(db, dimensions).catch(() => undefined);
        if (windows.some((w) => w.length > 0)) {
          await ensureVectorIndex(db, dimensions, 'chunk_windows').catch(() => undefined);
        }
      }
    }
    await pause();
  }
  return { items, chunks };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface ReembedderOptions {
  intervalMs: number;
  onError?: (err: unknown) => void;
  onDone?: (outcome: { items: number; chunks: number }) => void;
}

/** Runs `reembedStale` now and every interval until stopped (the background runtime's sweep role). */
export function startReembedder(db: Kysely<Database>, embedder: Embedder, options: ReembedderOptions) {
  return runEvery(
    options.intervalMs,
    async () => {
      // Drains the backlog item batch by item batch, then waits for the next tick.
      for (;;) {
        const outcome = await reembedStale(db, embedder);
        if (outcome.items > 0) options.onDone?.(outcome);
        if (outcome.items === 0) break;
      }
    },
    { now: true, ...(options.onError ? { onError: options.onError } : {}) },
  );
}
