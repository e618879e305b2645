import { describe, expect, it } from 'vitest';
import { formatFileSize } from './format.ts';

describe('attachment size', () => {
  it('is shown in KB', () => {
    expect(formatFileSize(2048)).toBe('2.0 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(5120)).toBe('5.0 KB');
    expect(formatFileSize(20)).toBe('0.1 KB');
    expect(formatFileSize(512_000)).toBe('500 KB');
    expect(formatFileSize(10 * 1024 * 1024)).toBe('10,240 KB');
    expect(formatFileSize(0)).toBe('0 KB');
    expect(formatFileSize(Number.NaN)).toBe('0 KB');
  });
});
