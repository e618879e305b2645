import { describe, expect, it } from 'vitest';
import {
  FOCUS_CHARS,
  FOCUS_MAX_NEW_TEXTS,
  FOCUS_WHOLE_FIRST,
  FOCUS_WHOLE_FUSED,
  focusCandidates,
  sentenceSimilarity,
  sentencesOfText,
} from './focus.ts';
import type { Embedder } from './ingest/embeddings.ts';

/** Vectors by concept: a text's vector counts its words of each concept (unit length). */
const CONCEPTS = [
  ['limescale', 'descaling', 'descale', 'citric'],
  ['milk', 'dairy', 'steam'],
  ['grinder', 'mill', 'burr'],
];
function conceptEmbedder(model: string): Embedder & { encoded: string[] } {
  const encoded: string[] = [];
  const embed = (text: string) => {
    const v = CONCEPTS.map(
      (c) => (text.toLowerCase().match(/[a-z]+/g) ?? []).filter((w) => c.includes(w)).length,
    );
    v.push(0.1);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  };
  return {
    model,
    encoded,
    embedQuery: async (t) => embed(t),
    embedDocuments: async (texts) => {
      encoded.push(...texts);
      return texts.map(embed);
    },
  };
}

const filler = (n: number) =>
  Array.from({ length: n }, (_, i) => `Grinder note ${i + 1}: the burr grinder sits on the counter.`).join(
    ' ',
  );

describe('the second stage: candidates ranked again by their best sentence', () => {
  it('moves a long chunk whose one sentence answers ahead, focused on that sentence within FOCUS_CHARS', async () => {
    const embedder = conceptEmbedder('concepts-1');
    const long = `${filler(4)} Descaling: I run citric acid through the machine every two months. ${filler(4)}`;
    const short = 'Steam the milk until the jug is hot.';
    const out = await focusCandidates(
      embedder,
      'How do you get rid of limescale?',
      [
        { content: short, score: 1 },
        { content: long, score: 0.2 },
      ],
      { wholeFirst: 0, wholeFused: 0 },
    );
    expect(out[0]!.wholeContent).toBe(long);
    expect(out[0]!.content).toContain('Descaling: I run citric acid through the machine every two months.');
    expect(out[0]!.content.length).toBeLessThanOrEqual(FOCUS_CHARS);
    expect(out[1]!.content).toBe(short);
  });

  it('hands the first FOCUS_WHOLE_FIRST candidates over whole and focuses the long ones after them', async () => {
    const embedder = conceptEmbedder('concepts-4');
    const long = (i: number) =>
      `${filler(4)} Descaling ${i}: I run citric acid through the machine every ${i + 1} months. ${filler(4)}`;
    const candidates = Array.from({ length: FOCUS_WHOLE_FIRST + 2 }, (_, i) => ({
      content: long(i),
      score: 1 - i / 10,
    }));
    const out = await focusCandidates(embedder, 'How do you get rid of limescale?', candidates);
    expect(out.map((c) => c.wholeContent ?? c.content)).toEqual(candidates.map((c) => c.content));
    for (const c of out.slice(0, FOCUS_WHOLE_FIRST)) {
      expect(c.wholeContent).toBeUndefined();
      expect(c.content.length).toBeGreaterThan(FOCUS_CHARS);
    }
    for (const c of out.slice(FOCUS_WHOLE_FIRST)) {
      expect(c.wholeContent).toBeDefined();
      expect(c.content).toContain('Descaling');
      expect(c.content.length).toBeLessThanOrEqual(FOCUS_CHARS);
    }
  });

  it("hands the fused ranking's first candidate over whole wherever the second stage ranks it", async () => {
    const embedder = conceptEmbedder('concepts-8');
    const question = 'How do you get rid of limescale?';
    // First by the fused score, but its sentences are further from the question than the others'.
    const fusedFirst = {
      content: `${filler(4)} Milk: I steam it until the jug is hot, then descale nothing. ${filler(4)}`,
      score: 1,
    };
    const others = Array.from({ length: FOCUS_WHOLE_FIRST + 1 }, (_, i) => ({
      content: `${filler(4)} Descaling ${i}: citric acid against limescale every ${i + 1} months. ${filler(4)}`,
      score: 0.5 - i / 10,
    }));
    const out = await focusCandidates(embedder, question, [fusedFirst, ...others]);
    expect(FOCUS_WHOLE_FUSED).toBe(1);
    // The second stage puts it last, past the whole first ones: whole all the same.
    expect(out.map((c) => c.wholeContent ?? c.content)).toEqual([
      ...others.map((c) => c.content),
      fusedFirst.content,
    ]);
    expect(out.at(-1)!.content).toBe(fusedFirst.content);
    expect(out.at(-1)!.wholeContent).toBeUndefined();
    // The others past FOCUS_WHOLE_FIRST are focused as before.
    expect(out[FOCUS_WHOLE_FIRST]!.wholeContent).toBe(others[FOCUS_WHOLE_FIRST]!.content);
    expect(out[FOCUS_WHOLE_FIRST]!.content.length).toBeLessThanOrEqual(FOCUS_CHARS);
    // Without the rule it would have been cut to its best sentence's neighbourhood.
    const without = await focusCandidates(embedder, question, [fusedFirst, ...others], { wholeFused: 0 });
    expect(without.at(-1)!.wholeContent).toBe(fusedFirst.content);
    expect(without.at(-1)!.content.length).toBeLessThanOrEqual(FOCUS_CHARS);
  });

  it('ranks a long chunk higher when two neighbouring sentences together are nearer the question', async () => {
    const embedder = conceptEmbedder('concepts-5');
    // Each chunk's best sentence covers one of the question's two concepts; only in `together` does
    // the next sentence cover the other.
    const apart = `${filler(3)} Descaling: citric acid every two months. ${filler(3)} Milk: I steam it gently. ${filler(2)}`;
    const together = `${filler(3)} Descaling: citric acid every two months. Milk: I steam it gently. ${filler(5)}`;
    const out = await focusCandidates(
      embedder,
      'How often do you descale, and how do you steam the milk?',
      [
        { content: apart, score: 0.31 },
        { content: together, score: 0.3 },
      ],
      { wholeFirst: 0, wholeFused: 0 },
    );
    expect(out.map((c) => c.wholeContent)).toEqual([together, apart]);
  });

  it('focuses a long chunk on its best two neighbouring sentences when together they are nearer the question', async () => {
    const embedder = conceptEmbedder('concepts-7');
    // The best sentence alone is the first "Milk" one (a tie, the earlier wins); the two sentences
    // together far after it are nearer the question than either.
    const chunk = `${filler(3)} Milk: steam it near the burr grinder. ${filler(8)} Descaling: citric acid. Milk and steam by the burr grinder. ${filler(3)}`;
    const [out] = await focusCandidates(
      embedder,
      'How often do you descale, and how do you steam the milk?',
      [{ content: chunk, score: 0.5 }],
      { wholeFirst: 0, wholeFused: 0 },
    );
    expect(out!.content).toContain('Descaling: citric acid. Milk and steam by the burr grinder.');
    expect(out!.content).not.toContain('Milk: steam it near');
    expect(out!.content.length).toBeLessThanOrEqual(FOCUS_CHARS);
  });

  it('reads each candidate its own windows when an earlier one could not be scored', async () => {
    const embedder = conceptEmbedder('concepts-6');
    const question = 'How often do you descale, and how do you steam the milk?';
    const apart = `${filler(3)} Descaling: citric acid every two months. ${filler(3)} Milk: I steam it gently. ${filler(2)}`;
    const together = `${filler(3)} Descaling: citric acid every two months. Milk: I steam it gently. ${filler(5)}`;
    const known = [
      { content: apart, score: 0.31 },
      { content: together, score: 0.3 },
    ];
    await focusCandidates(embedder, question, known, { wholeFirst: 0, wholeFused: 0 });
    // More new sentences than one question may encode: this candidate keeps its place after the
    // scored ones, and its windows are not the next candidates'.
    const unknown = { content: filler(FOCUS_MAX_NEW_TEXTS + 10), score: 0.5 };
    const out = await focusCandidates(embedder, question, [unknown, ...known], {
      wholeFirst: 0,
      wholeFused: 0,
    });
    expect(out.map((c) => c.wholeContent ?? c.content)).toEqual([together, apart, unknown.content]);
  });

  it('remembers sentence vectors: a second question encodes nothing new', async () => {
    const embedder = conceptEmbedder('concepts-2');
    const candidates = [{ content: `${filler(8)} Milk: steam it to 60 degrees.`, score: 0.5 }];
    await focusCandidates(embedder, 'How hot is the dairy?', candidates);
    const first = embedder.encoded.length;
    // Its sentences, and each window of two neighbouring sentences.
    expect(first).toBe(2 * sentencesOfText(candidates[0]!.content).length - 1);
    await focusCandidates(embedder, 'Which mill do you use?', candidates);
    expect(embedder.encoded.length).toBe(first);
  });

  it('encodes what one question may not when the embedder is idle, once, and remembers it', async () => {
    const base = conceptEmbedder('concepts-idle');
    const idle: string[][] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const embedder: Embedder = {
      ...base,
      embedWhenIdle: async (texts) => {
        idle.push(texts);
        await released;
        return base.embedDocuments(texts);
      },
    };
    const big = { content: filler(FOCUS_MAX_NEW_TEXTS + 10), score: 0.5 };
    const texts = 2 * sentencesOfText(big.content).length - 1;
    await focusCandidates(embedder, 'Which mill do you use?', [big]);
    expect(base.encoded).toHaveLength(FOCUS_MAX_NEW_TEXTS);
    // The rest is queued to be encoded when idle, and asked for again meanwhile it is not queued twice.
    expect(idle).toHaveLength(1);
    expect(idle[0]!.length).toBeLessThanOrEqual(4);
    await focusCandidates(embedder, 'Which burr grinder?', [big]);
    expect(idle).toHaveLength(1);
    release();
    // Once idle, the rest is encoded; what a question encoded itself is not again, but for a batch
    // already handed over (at most one while a question encodes, plus the one that was waiting).
    const known = async () => {
      const before = base.encoded.length;
      await focusCandidates(embedder, 'How coarse is the grind?', [big, { content: 'Milk.', score: 0.9 }]);
      return base.encoded.length === before;
    };
    await expect.poll(known).toBe(true);
    expect(base.encoded.length).toBeLessThanOrEqual(texts + 1 + 2 * 4);
    expect(new Set(base.encoded).size).toBe(texts + 1);
  });

  it('keeps the order when the embedder fails, and gives the answerer cosines by sentence', async () => {
    const failing: Embedder = {
      model: 'failing',
      embedQuery: async () => {
        throw new Error('down');
      },
      embedDocuments: async () => {
        throw new Error('down');
      },
    };
    const candidates = [
      { content: 'a', score: 1 },
      { content: 'b', score: 0.5 },
    ];
    expect(await focusCandidates(failing, 'q', candidates)).toEqual(candidates);
    const sims = await sentenceSimilarity(conceptEmbedder('concepts-3'))('limescale?', [
      'Descaling with citric acid.',
      'Steam the milk.',
    ]);
    expect(sims![0]!).toBeGreaterThan(0.9);
    expect(sims![1]!).toBeLessThan(0.2);
  });
});
