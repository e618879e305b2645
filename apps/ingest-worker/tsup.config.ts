import { defineConfig } from 'tsup';

// Workspace packages are bundled in; npm dependencies stay external and load from node_modules.
// The knowledge parser thread is its own entry: it is loaded with new Worker(dist/parse-worker.js).
export default defineConfig({
  entry: {
    main: 'src/main.ts',
    'parse-worker': '../../packages/knowledge/src/ingest/parse-worker.ts',
  },
  format: 'esm',
  platform: 'node',
  target: 'node22',
  sourcemap: true,
  clean: true,
  noExternal: [/^@fanpilot\//],
  external: [/^(?!@fanpilot\/)[^./]/],
});
