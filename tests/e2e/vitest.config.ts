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
  },
});
