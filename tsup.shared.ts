import { defineConfig } from 'tsup';

/**
 * How node code is built. Every workspace package that node runs (db, core, knowledge, …) builds
 * its own `dist/`, and an app's bundle holds only the app's own files: `@fanpilot/*` imports stay
 * imports, so each package loads its npm dependencies from its own node_modules and an app lists
 * only what it imports itself. Tools that read TypeScript (vitest, vite, tsx) take the packages'
 * sources instead, through the export condition in `vitest.shared.ts`.
 */
const nodeBuild = (entry: Record<string, string>) =>
  defineConfig({
    entry,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    sourcemap: true,
    clean: true,
    // Only relative imports are bundled: npm and workspace packages load at run time.
    external: [/^[^./]/],
  });

/** An app (apps/api, apps/worker): its entry points. */
export const nodeAppBuild = nodeBuild;

/** A workspace package: `index` plus any sub-path entries its package.json exports. */
export const nodePackageBuild = (entry: Record<string, string> = {}) =>
  nodeBuild({ index: 'src/index.ts', ...entry });
