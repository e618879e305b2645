import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from '../../vite.precompress.ts';
import { browserSources } from '../../vitest.shared.ts';

// The website widget's chat frame (widget.html → src/widget/frame.tsx): the fan app's own chat
// screen, built apart so it loads none of the app's routes, install or push code. The api serves
// it at /widget/{username}; its assets sit with the app's under /fan/assets. Built after the
// service worker, so the app's worker does not precache it.
//
// React's runtime alone is about 60 KB gzipped; the frame's budget is 60 KB of JS in all (issue 28).
// So this build, and only this one, runs the same components on Preact's React compatibility layer
// (`preact/compat`, ~4 KB), measured in docs/decisions/0050-the-website-widget.md; the fan app and
// the tests keep React.
// Absolute paths: packages/ui and @tanstack/react-query import react from folders that have no preact.
const preact = (file: string) => path.resolve(import.meta.dirname, 'node_modules/preact', file);
const REACT_ON_PREACT = [
  { find: /^react-dom\/client$/, replacement: preact('compat/client.mjs') },
  { find: /^react\/jsx-runtime$/, replacement: preact('jsx-runtime/dist/jsxRuntime.module.js') },
  { find: /^react\/jsx-dev-runtime$/, replacement: preact('jsx-runtime/dist/jsxRuntime.module.js') },
  { find: /^react-dom$/, replacement: preact('compat/dist/compat.module.js') },
  { find: /^react$/, replacement: preact('compat/dist/compat.module.js') },
];

export default defineConfig({
  resolve: { ...browserSources, alias: REACT_ON_PREACT },
  base: '/fan/',
  publicDir: false,
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: false,
    assetsDir: 'assets',
    sourcemap: false,
    modulePreload: { polyfill: false },
    rollupOptions: { input: 'widget.html' },
  },
});
