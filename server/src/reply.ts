import type { Sql } from './db/sql';

/**
 * A write statement: data-modifying CTEs that run only when `guard` (SQL) holds. Commands build it; the
 * write runner executes it together with the Idempotency-Key record.
 */
export interface GuardedWrite {
  /** The CTEs, with their values, for a given guard. */
  ctes: (guard: Sql) => Sql;
  /**
   * For a write conditional on what was read (optimistic concurrency): SQL over the CTEs that is true when
   * the write applied. If the guard held and this is false, the whole statement is undone, the key's record
   * included, and it fails with `isStaleWrite`: the command should run again on fresh data.
   */
  applied?: Sql;
}

/** What a handler answers: a status, and a body unless 204/304. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Statement-mode routes: the one write, run by the runner together with the Idempotency-Key record. */
  write?: GuardedWrite;
  /** A body streamed as it is made (a CSV export), instead of `body`: only for reads. */
  stream?: {
    contentType: string;
    chunks: AsyncIterable<string | Buffer>;
    /** Ended (connection closed) when no chunk is made or written for this long: a stalled download. */
    stallMs?: number;
  };
}
