/**
 * The workspace packages export their TypeScript sources under this condition and their built
 * `dist/` to everything else (node). Vitest, vite and tsx ask for it, so tests and dev servers run
 * the sources as they are edited, with no build in between; `tsup.shared.ts` builds the rest.
 */
export const SOURCE_CONDITION = '@fanpilot/source';

/** Vitest's own defaults (node's, without `module`), with the sources first. */
const testConditions = [SOURCE_CONDITION, 'node', 'development|production'];

/** For vitest configs: tests, and the node processes vitest starts, import the sources. */
export const readSources = {
  resolve: { conditions: testConditions },
  ssr: { resolve: { conditions: testConditions } },
};

/** For vite's browser builds: vite's client defaults, with the sources first. */
export const browserSources = {
  conditions: [SOURCE_CONDITION, 'module', 'browser', 'development|production'],
};
