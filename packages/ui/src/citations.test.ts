import { describe, expect, it } from 'vitest';
import { splitCitations, withoutCitationMarkers } from './citations.ts';

describe('citation markers', () => {
  it('cuts an answer into text and markers, and strips them for previews', () => {
    expect(splitCitations('Twice a day [1]. Flour [2][3].')).toEqual([
      { kind: 'text', text: 'Twice a day' },
      { kind: 'cite', n: 1 },
      { kind: 'text', text: '. Flour' },
      { kind: 'cite', n: 2 },
      { kind: 'cite', n: 3 },
      { kind: 'text', text: '.' },
    ]);
    expect(splitCitations('No markers, [2019] is a year.')).toEqual([
      { kind: 'text', text: 'No markers, [2019] is a year.' },
    ]);
    expect(withoutCitationMarkers('Twice a day [1]. Flour [2][3].')).toBe('Twice a day. Flour.');
  });
});
