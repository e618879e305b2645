import { defineConfig } from 'tsup';

/**
 * How the node apps (apps/api, apps/worker) are built: `main` is the app's entry, beside the
 * knowledge parser thread (loaded with new Worker(dist/parse-worker.js)). Workspace packages are
 * bundled in; npm dependencies stay external and load from node_modules.
 */
export function nodeAppBuild(entry: Record<string, string>) {
  return defineConfig({
    entry: { ...entry, 'parse-worker': '../../packages/knowledge/src/ingest/parse-worker.ts' },
    format: 'esm',
    platform: 'node',
    target: 'node22',
    sourcemap: true,
    clean: true,
    noExternal: [/^@fanpilot\//],
    external: [/^(?!@fanpilot\/)[^./]/],
  });
}
