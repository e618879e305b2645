// Draws the default app icons (a white chat bubble on the brand colour) as PNGs in public/icons.
// Run once by hand when the design changes: node scripts/make-icons.mjs
import { writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';

const BRAND = [0x43, 0x38, 0xca];
const WHITE = [0xff, 0xff, 0xff];

/** True when (x, y), in 0..1 icon space, falls inside the bubble; the shape keeps to the maskable safe zone. */
function inBubble(x, y) {
  const [left, top, right, bottom, radius] = [0.27, 0.3, 0.73, 0.62, 0.08];
  const cx = Math.min(Math.max(x, left + radius), right - radius);
  const cy = Math.min(Math.max(y, top + radius), bottom - radius);
  const body =
    x >= left && x <= right && y >= top && y <= bottom && (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
  // The tail: a triangle below the bubble's lower left.
  const tail = y >= bottom - 0.01 && y <= 0.72 && x >= 0.36 && x <= 0.36 + (0.72 - y) * 1.2 && x <= 0.48;
  return body || tail;
}

function icon(size) {
  const samples = 4;
  const png = new PNG({ width: size, height: size, colorType: 2 });
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let hits = 0;
      for (let sy = 0; sy < samples; sy++)
        for (let sx = 0; sx < samples; sx++)
          if (inBubble((px + (sx + 0.5) / samples) / size, (py + (sy + 0.5) / samples) / size)) hits++;
      const a = hits / samples ** 2;
      const at = (py * size + px) * 4;
      for (let c = 0; c < 3; c++) png.data[at + c] = Math.round(BRAND[c] * (1 - a) + WHITE[c] * a);
      png.data[at + 3] = 0xff;
    }
  }
  return PNG.sync.write(png, { colorType: 2, deflateLevel: 9 });
}

for (const size of [192, 512]) {
  writeFileSync(new URL(`../public/icons/icon-${size}.png`, import.meta.url), icon(size));
}
