import { describe, expect, it } from 'vitest';
import { clearTransferFragment, readTransferToken } from './transfer.ts';

describe('transfer link fragment', () => {
  it('reads the token of #transfer=…', () => {
    expect(readTransferToken('#transfer=abc_DEF-123')).toBe('abc_DEF-123');
    expect(readTransferToken('transfer=abc')).toBe('abc');
  });

  it('ignores an address without one, or with something that is not a token', () => {
    for (const hash of [
      '',
      '#',
      '#other=1',
      '#transfer=',
      '#transfer=a%20b',
      `#transfer=${'x'.repeat(101)}`,
    ]) {
      expect(readTransferToken(hash)).toBeNull();
    }
  });

  it('clears the fragment, keeping path and query', () => {
    const calls: unknown[][] = [];
    clearTransferFragment(
      { pathname: '/pwa/cara', search: '?x=1' },
      { state: { idx: 0 }, replaceState: (...args: unknown[]) => void calls.push(args) },
    );
    expect(calls).toEqual([[{ idx: 0 }, '', '/pwa/cara?x=1']]);
  });
});
