import { LRUCache } from 'lru-cache';

/**
 * A least-recently-used cache of at most `entries` entries whose storage grows with what it holds.
 * lru-cache's `max` sets aside its whole storage at once (two arrays and three typed arrays of
 * `max` slots: about 6 MB for 200,000 entries), so the api's lookups cost about 23 MB of memory at
 * rest before a single request; counting each entry as 1 against `maxSize` bounds them the same
 * way without that (issue 39: the api's memory with 10,000 event streams).
 */
export function boundedCache<K extends {}, V extends {}>(entries: number): LRUCache<K, V> {
  return new LRUCache<K, V>({ maxSize: entries, sizeCalculation: () => 1 });
}
