import type { MigrationFn } from './types';

/** Per-token request counts per minute, shared by all instances (see server/src/rateLimit/limiter.ts). */
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    CREATE TABLE rate_limit_windows (
      token_id integer NOT NULL,
      window_start timestamptz NOT NULL,
      count integer NOT NULL,
      PRIMARY KEY (token_id, window_start)
    );
    CREATE INDEX rate_limit_windows_start ON rate_limit_windows (window_start);
  `);
};
