import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from '../../vite.precompress.ts';
import { browserSources } from '../../vitest.shared.ts';
import { REACT_ON_PREACT } from './vite.preact.ts';

// The api serves this build under /fan/ and answers the page routes (/pwa/:username, /fanchat-mobile,
// /mobile-chat) with dist/index.html, so every asset URL must carry the /fan/ prefix.
// It runs on Preact's React compatibility layer (vite.preact.ts): the first screen's JavaScript
// under 100 KB gzipped (issue 39, docs/decisions/0082-…).
export default defineConfig({
  resolve: { ...browserSources, alias: REACT_ON_PREACT },
  base: '/fan/',
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    target: 'es2022',
    assetsDir: 'assets',
    sourcemap: false,
    // Every browser the app targets (es2022) preloads modules itself; the polyfill would only add
    // to the first screen.
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/objects': 'http://localhost:3000',
      '^/pwa/[^/]+/manifest\\.webmanifest$': 'http://localhost:3000',
    },
  },
});
