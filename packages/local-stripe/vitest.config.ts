import { defineConfig } from 'vitest/config';
import { readSources } from '../../vitest.shared.ts';
export default defineConfig({
  ...readSources,
  test: { testTimeout: 30_000 },
});
