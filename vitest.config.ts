import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/support/sequencer.ts';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', '.tools/**', '.data/**'],
    // The Temporal worker loads a native addon: separate processes are the safe pool.
    pool: 'forks',
    // Two files at a time: most of a file's time is spent waiting on Temporal, the devnet and
    // the stores, and every file keeps to its own task queues, database, key prefix and senders.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    globalSetup: ['test/support/globalSetup.ts'],
    setupFiles: ['test/support/setupFile.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    teardownTimeout: 60_000,
  },
});
