// The creator's widget colour in the frame (docs/widget.md): the launcher's colour carried into the
// chat through the design system's brand tokens (the classes bg-brand-700 and the like read
// --color-brand-*), so the header's and send button's brand colour is the creator's. No colour of
// the app's own: the shades are the creator's mixed with black or white.

const channel = (v: number) => {
  const c = v / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
const luminance = ([r, g, b]: number[]) =>
  0.2126 * channel(r ?? 0) + 0.7152 * channel(g ?? 0) + 0.0722 * channel(b ?? 0);

/** The colour, darkened as little as needed for white text on it to read (WCAG AA, 4.5:1). */
export function readableOnWhite(rgb: [number, number, number]): [number, number, number] {
  let scaled = rgb;
  for (let f = 1; f > 0; f -= 0.05) {
    scaled = rgb.map((v) => Math.round(v * f)) as [number, number, number];
    if (1.05 / (luminance(scaled) + 0.05) >= 4.5) break;
  }
  return scaled;
}

/** Sets the brand tokens of `root` from the creator's `#rrggbb`; anything else leaves them as they are. */
export function applyCreatorColor(root: HTMLElement, color: string): void {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (!match) return;
  const [r, g, b] = readableOnWhite([1, 2, 3].map((i) => Number.parseInt(match[i] ?? '0', 16)) as never);
  const strong = `rgb(${r}, ${g}, ${b})`;
  const shades: Record<string, string> = {
    '50': `color-mix(in oklab, ${strong} 7%, white)`,
    '100': `color-mix(in oklab, ${strong} 14%, white)`,
    '200': `color-mix(in oklab, ${strong} 28%, white)`,
    '600': `color-mix(in oklab, ${strong} 90%, white)`,
    '700': strong,
    '800': `color-mix(in oklab, ${strong} 82%, black)`,
    '900': `color-mix(in oklab, ${strong} 66%, black)`,
  };
  for (const [shade, value] of Object.entries(shades))
    root.style.setProperty(`--color-brand-${shade}`, value);
}
