import { defineConfig } from 'vite';
import { precompress } from '../../vite.precompress.ts';
import { browserSources } from '../../vitest.shared.ts';

// The website widget's loader (src/widget/loader.ts) as one classic script, dist/widget.js: the api
// serves it at /widget.js for creators' sites (docs/widget.md). No framework, no imports left.
export default defineConfig({
  resolve: browserSources,
  plugins: [precompress()],
  build: {
    target: 'es2020',
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: false,
    copyPublicDir: false,
    lib: {
      entry: 'src/widget/loader.ts',
      formats: ['iife'],
      name: 'FanpilotWidget',
      fileName: () => 'widget.js',
    },
  },
});
