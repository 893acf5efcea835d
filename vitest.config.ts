import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', '.tools/**', '.data/**'],
    // The Temporal worker loads a native addon: separate processes are the safe pool.
    pool: 'forks',
    globalSetup: ['test/support/globalSetup.ts'],
    setupFiles: ['test/support/setupFile.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    teardownTimeout: 60_000,
  },
});
