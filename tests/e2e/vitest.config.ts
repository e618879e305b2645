import { defineConfig } from 'vitest/config';
import { readSources } from '../../vitest.shared.ts';

// One api process and one Chromium per file; browser flows are slow, so time limits are generous.
export default defineConfig({
  ...readSources,
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // expect.poll waits for the page's state; vitest's 1 s default is shorter than a loaded
    // machine takes to load a page (fan.test's manifest link failed so in CI). A poll that names
    // its own timeout keeps it.
    expect: { poll: { timeout: 15_000 } },
  },
});
