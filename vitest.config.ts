import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One PostgreSQL for the whole run; each test file gets its own database cloned from a migrated template.
    globalSetup: ['test/support/globalSetup.ts'],
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Three files at once on two cores: a file waits on PostgreSQL and Chromium as much as it computes (a full
    // run used about one core of two with the default of two workers).
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
  },
});
