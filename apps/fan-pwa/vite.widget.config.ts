import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from '../../vite.precompress.ts';
import { browserSources } from '../../vitest.shared.ts';
import { REACT_ON_PREACT } from './vite.preact.ts';

// The website widget's chat frame (widget.html → src/widget/frame.tsx): the fan app's own chat
// screen, built apart so it loads none of the app's routes, install or push code. The api serves
// it at /widget/{username}; its assets sit with the app's under /fan/assets. Built after the
// service worker, so the app's worker does not precache it.
//
// Like the app (vite.config.ts), it runs on Preact's React compatibility layer (vite.preact.ts).

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
