import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { drawPng, makePng } from './png.ts';

describe('test pictures', () => {
  it('are PNGs of the size asked, with the pixels drawn', () => {
    const png = makePng(256, 128);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const read = PNG.sync.read(png);
    expect([read.width, read.height]).toEqual([256, 128]);
    expect([...read.data.subarray(0, 4)]).toEqual([79, 70, 229, 255]);
    const dot = PNG.sync.read(drawPng(3, 3, (x, y) => (x === 1 && y === 1 ? [255, 0, 0] : [0, 0, 0])));
    expect([...dot.data.subarray((1 * 3 + 1) * 4, (1 * 3 + 1) * 4 + 3)]).toEqual([255, 0, 0]);
    expect([...dot.data.subarray(0, 3)]).toEqual([0, 0, 0]);
  });
});
