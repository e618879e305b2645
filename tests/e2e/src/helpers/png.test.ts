import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { makePng } from './png.ts';

describe('makePng', () => {
  it('writes a PNG signature, a header with the size and the pixel rows', () => {
    const png = makePng(256, 256);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.toString('ascii', 12, 16)).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBe(256);
    expect(png.readUInt32BE(20)).toBe(256);
    const idatLength = png.readUInt32BE(33);
    expect(png.toString('ascii', 37, 41)).toBe('IDAT');
    expect(inflateSync(png.subarray(41, 41 + idatLength)).length).toBe(256 * (1 + 256 * 3));
  });
});
