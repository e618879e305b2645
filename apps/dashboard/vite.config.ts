import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from '../../vite.precompress.ts';
import { browserSources } from '../../vitest.shared.ts';
import { REACT_ON_PREACT } from './vite.preact.ts';

/**
 * In `vite dev`, the api answers these paths. Run it with PORT=3001 and
 * PUBLIC_ORIGIN=http://localhost:5173 so the sign-in callback comes back through this server.
 */
const apiOrigin = process.env.API_ORIGIN ?? 'http://localhost:3001';
const proxied = Object.fromEntries(['/api', '/auth', '/objects'].map((path) => [path, apiOrigin]));

export default defineConfig({
  resolve: { ...browserSources, alias: REACT_ON_PREACT },
  base: '/',
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Every browser the app targets (es2022) preloads modules itself; the polyfill would only add
    // to the first screen (as in apps/fan-pwa).
    modulePreload: { polyfill: false },
  },
  server: { proxy: proxied },
});
