import { defineConfig } from 'vitest/config';

// One api process and one Chromium per file; browser flows are slow, so time limits are generous.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
