import { defineConfig } from 'tsup';

// Workspace packages are bundled in; npm dependencies stay external and load from node_modules.
export default defineConfig({
  entry: ['src/server.ts'],
  format: 'esm',
  platform: 'node',
  target: 'node22',
  sourcemap: true,
  clean: true,
  noExternal: [/^@fanpilot\//],
  external: [/^(?!@fanpilot\/)[^./]/],
});
