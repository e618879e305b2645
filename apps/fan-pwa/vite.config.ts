import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from '../../vite.precompress.ts';
import { browserSources } from '../../vitest.shared.ts';

// The api serves this build under /fan/ and answers the page routes (/pwa/:username, /fanchat-mobile,
// /mobile-chat) with dist/index.html, so every asset URL must carry the /fan/ prefix.
export default defineConfig({
  resolve: browserSources,
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
