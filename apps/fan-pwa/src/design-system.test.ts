import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The fan app builds on packages/ui like the dashboard: the same tokens (brand colours, font), the
// same linkify and formatters. A colour of its own would drift from the dashboard's.

const src = fileURLToPath(new URL('./', import.meta.url));
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? files(path.join(dir, e.name))
      : /\.(tsx?|css)$/.test(e.name) && !/\.test\./.test(e.name)
        ? [path.join(dir, e.name)]
        : [],
  );
const sources = files(src).map((file) => ({
  file: path.relative(src, file),
  text: readFileSync(file, 'utf8'),
}));

describe('the fan app and the design system', () => {
  it('loads the shared tokens in its stylesheet', () => {
    const css = readFileSync(path.join(src, 'styles.css'), 'utf8');
    expect(css).toContain('@import "@fanpilot/ui/styles.css";');
  });

  it('writes no colour of its own: brand tokens, not hex values or a palette of its own', () => {
    const found = sources.flatMap(({ file, text }) =>
      [
        ...text.matchAll(
          /#[0-9a-fA-F]{3,8}\b|\b(?:bg|text|border|ring|fill|stroke)-(?:indigo|violet|purple|blue)-\d+/g,
        ),
      ]
        // The QR code is black on white, whatever the brand is.
        .filter((m) => !(file.endsWith('TransferPanel.tsx') && ['#fff', '#000'].includes(m[0])))
        .map((m) => `${file}: ${m[0]}`),
    );
    expect(found).toEqual([]);
  });

  it('takes its links and sizes from @fanpilot/ui', () => {
    const imports = sources
      .filter(({ text }) => /from '@fanpilot\/ui(\/[A-Za-z]+)?'/.test(text))
      .map((s) => s.file);
    expect(imports).toEqual(
      expect.arrayContaining(['components/MessageList.tsx', 'components/AnnouncementBanner.tsx']),
    );
    expect(sources.some(({ file }) => /linkify|LinkifiedText/.test(file))).toBe(false);
  });
});
