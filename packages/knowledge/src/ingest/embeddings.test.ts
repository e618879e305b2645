import { describe, expect, it } from 'vitest';
import { type Embedder, withQueryCache } from './embeddings.ts';

function counting(fail = new Set<string>()) {
  const calls: string[] = [];
  const embedder: Embedder = {
    model: 'counting',
    embedDocuments: async (texts) => texts.map(() => [1]),
    embedQuery: async (text) => {
      calls.push(text);
      await new Promise((r) => setTimeout(r, 5));
      if (fail.has(text)) throw new Error('endpoint down');
      return [text.length, 1];
    },
  };
  return { embedder, calls };
}

describe('withQueryCache', () => {
  it('embeds a question once when two steps ask for it at the same time', async () => {
    const { embedder, calls } = counting();
    const cached = withQueryCache(embedder);
    const [a, b] = await Promise.all([
      cached.embedQuery('how long is the run'),
      cached.embedQuery('how long is the run'),
    ]);
    expect(a).toEqual([19, 1]);
    expect(b).toEqual(a);
    expect(calls).toEqual(['how long is the run']);
    await cached.embedQuery('how long is the run');
    expect(calls).toHaveLength(1);
    await cached.embedQuery('another question');
    expect(calls).toEqual(['how long is the run', 'another question']);
  });

  it('does not remember a failure: the next ask tries again', async () => {
    const fail = new Set(['flaky']);
    const { embedder, calls } = counting(fail);
    const cached = withQueryCache(embedder);
    await expect(cached.embedQuery('flaky')).rejects.toThrow('endpoint down');
    fail.clear();
    await expect(cached.embedQuery('flaky')).resolves.toEqual([5, 1]);
    expect(calls).toEqual(['flaky', 'flaky']);
  });

  it('keeps the embedder’s name and its document embedding', async () => {
    const { embedder } = counting();
    const cached = withQueryCache(embedder);
    expect(cached.model).toBe('counting');
    await expect(cached.embedDocuments(['a', 'b'])).resolves.toEqual([[1], [1]]);
  });
});
