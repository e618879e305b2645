// The layering of docs/architecture.md ("Arrows run one way"), checked by dependency-cruiser over
// the sources of apps/ and packages/ (tests/deploy/src/boundaries.test.ts runs it; so does
// `pnpm exec depcruise apps packages`). A workspace import resolves to the package's sources
// (the `@fanpilot/source` condition), so every rule speaks of repository paths.

/** The packages only node runs: a web app (or what it bundles) never imports one. */
const SERVER =
  '^(apps/(api|worker)|packages/(core|db|answers|knowledge|jobs|background|mail|storage|payments|local-stripe|config|testkit))/';
/** Test sources, which may stand on the test kit and on anything they exercise. */
const TESTS = '(\\.test\\.tsx?$|/test/|/bench/|/quality/|/scripts/)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'packages-never-import-apps',
      comment: 'Apps import packages; a package never imports an app.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'apps-never-import-each-other',
      comment: 'An app reaches another app over HTTP only, never by import.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'contracts-and-config-import-nothing-of-ours',
      comment: 'packages/contracts and packages/config are the bottom layer.',
      severity: 'error',
      from: { path: '^packages/(contracts|config)/', pathNot: TESTS },
      to: { path: '^(apps|packages)/', pathNot: '^packages/$1/' },
    },
    {
      name: 'jobs-imports-nothing-of-ours',
      comment: 'packages/jobs is the queue and knows nothing of what the jobs do.',
      severity: 'error',
      from: { path: '^packages/jobs/', pathNot: TESTS },
      to: { path: '^(apps|packages)/', pathNot: '^packages/jobs/' },
    },
    {
      name: 'core-imports-only-db-and-contracts',
      comment:
        'packages/core owns every write; it stands on db and contracts only (and on the types of payments facts, record 0070).',
      severity: 'error',
      from: { path: '^packages/core/', pathNot: TESTS },
      to: { path: '^(apps|packages)/', pathNot: '^packages/(core|db|contracts|payments)/' },
    },
    {
      name: 'core-reads-payments-types-only',
      comment: 'core applies provider-neutral facts; the Stripe adapter stays out of its build.',
      severity: 'error',
      from: { path: '^packages/core/', pathNot: TESTS },
      to: { path: '^packages/payments/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'only-apps-start-the-background',
      comment:
        'packages/background is the runtime the api, the worker and tests start; no package imports it.',
      severity: 'error',
      from: { path: '^packages/', pathNot: `^packages/background/|${TESTS}` },
      to: { path: '^packages/background/' },
    },
    {
      name: 'production-never-imports-the-test-kit',
      comment: 'packages/testkit is for tests and benchmarks only (record 0025).',
      severity: 'error',
      from: { path: '^(apps|packages)/', pathNot: `^packages/testkit/|${TESTS}` },
      to: { path: '^packages/testkit/' },
    },
    {
      name: 'web-apps-never-import-server-packages',
      comment: 'The dashboard, the fan app and the extension reach the api over HTTP only.',
      severity: 'error',
      from: { path: '^apps/(dashboard|fan-pwa|extension)/' },
      to: { path: SERVER },
    },
    {
      name: 'ui-imports-only-contracts',
      comment: 'packages/ui is bundled into the web apps; it stands on contracts only.',
      severity: 'error',
      from: { path: '^packages/ui/', pathNot: TESTS },
      to: { path: '^(apps|packages)/', pathNot: '^packages/(ui|contracts)/' },
    },
    {
      name: 'no-cycle-between-packages',
      comment: 'Packages form a directed acyclic graph: no cycle runs through two packages.',
      severity: 'error',
      from: { path: '^packages/([^/]+)/' },
      to: { circular: true, via: { path: '^packages/', pathNot: '^packages/$1/' } },
    },
  ],
  options: {
    includeOnly: '^(apps|packages)/',
    exclude: { path: '(/node_modules/|/dist/|/dist-[^/]+/|\\.d\\.ts$)' },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['@fanpilot/source', 'types', 'import', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types'],
    },
    skipAnalysisNotInRules: true,
  },
};
