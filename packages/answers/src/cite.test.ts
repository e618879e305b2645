import { describe, expect, it } from 'vitest';
import { citeUsed, hasMarkers, withoutMarkers } from './cite.ts';

describe('citations follow use', () => {
  const keys = ['a', 'b', 'a', 'c'];
  const sourceOf = (n: number) => keys[n - 1];

  it('renumbers the excerpts used to the sources they come from, in order of first use', () => {
    const cited = citeUsed('Twice a day [3]. With flour [4]. Equal weights [1][2].', sourceOf);
    expect(cited.sources).toEqual(['a', 'c', 'b']);
    expect(cited.text).toBe('Twice a day [1]. With flour [2]. Equal weights [1][3].');
  });

  it('drops markers naming no excerpt, and repeats inside one marker', () => {
    const cited = citeUsed('One [9]. Two [1, 3, 2].', sourceOf);
    expect(cited.sources).toEqual(['a', 'b']);
    expect(cited.text).toBe('One. Two [1][2].');
  });

  it('leaves text without markers alone, and years are not markers', () => {
    expect(citeUsed('Since [2019] I bake.', sourceOf)).toEqual({ text: 'Since [2019] I bake.', sources: [] });
    expect(hasMarkers('Since [2019] I bake.')).toBe(false);
    expect(withoutMarkers('Twice [1]. Thrice [2, 3].')).toBe('Twice. Thrice.');
  });
});
