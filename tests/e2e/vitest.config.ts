import { defineConfig } from 'vitest/config';

// Browser tests start the built api and Chromium: one file at a time on a small machine.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
