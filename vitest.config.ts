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
    // expect.poll's own default is 1 s: too short for a render, a sync or a delivery on a loaded 2-core CI run
    // with three files at once, and a poll with no timeout of its own is waiting for a condition, not
    // asserting a bound (a test whose point is a bound names it: `{ timeout: ON_SCREEN_MS }`).
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
  },
});
