import { PNG } from 'pngjs';

type Rgb = [number, number, number];

/** A real RGB PNG of the given size, each pixel the colour `pixel(x, y)` gives (pngjs encodes it). */
export function drawPng(width: number, height: number, pixel: (x: number, y: number) => Rgb): Buffer {
  const png = new PNG({ width, height, colorType: 2 });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4;
      png.data.set([...pixel(x, y), 0xff], at);
    }
  }
  return PNG.sync.write(png, { colorType: 2 });
}

/** A diagonal gradient, so the picture is not one flat colour. */
export const makePng = (width: number, height: number): Buffer =>
  drawPng(width, height, (x, y) => [
    79 + Math.round((x / width) * 100),
    70,
    229 - Math.round((y / height) * 100),
  ]);
