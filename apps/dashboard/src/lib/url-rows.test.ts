import { describe, expect, it } from 'vitest';
import { removeUrlRow, urlsToSend } from './url-rows.ts';

describe('URL rows', () => {
  it('drops blank rows and trims the rest when sending', () => {
    expect(urlsToSend(['  https://a.example ', '', '   ', 'https://b.example'])).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
  });

  it('removes a row but always keeps at least one', () => {
    expect(removeUrlRow(['a', 'b'], 0)).toEqual(['b']);
    expect(removeUrlRow(['only'], 0)).toEqual(['']);
  });
});
