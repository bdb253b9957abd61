import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One PostgreSQL for the whole run; each test file gets its own database cloned from a migrated template.
    globalSetup: ['test/support/globalSetup.ts'],
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
  },
});
