import type { Sql } from './db/sql';

/**
 * What a write statement is made of besides the command's own CTEs, handed to the command's statement by
 * the write runner (idempotency/runWrite.ts), in the order the statement uses them:
 *
 *     WITH ${parts.claim},                      -- the Idempotency-Key's lock and record (nothing to claim without a key)
 *          checkin AS (… WHERE ${parts.claimed} …),  -- the command's change: only when the key was claimed
 *          …,
 *          ${parts.audit(applied)}              -- the audit row, only when the change applied
 *     SELECT ${parts.outcome(applied)}          -- what the runner reads back
 */
export interface WriteParts {
  claim: Sql;
  /** SQL true when the key was claimed (always, without a key): the command writes only then. */
  claimed: Sql;
  /** The audit CTE (a no-op when the route audits nothing), writing only when `applied` holds. */
  audit: (applied: Sql) => Sql;
  /**
   * The select list the runner reads: whether the key was locked and claimed and, for a change that
   * applies only to the row version it read (`applied` false though the key was claimed), an error that
   * undoes the whole statement so the command runs again on fresh data.
   */
  outcome: (applied: Sql) => Sql;
}

/** A command's one write statement, given the parts the runner adds (see WriteParts). */
export type WriteStatement = (parts: WriteParts) => Sql;

/** What a handler answers: a status, and a body unless 204/304. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Statement-mode routes: the one write, run by the runner as one statement with the Idempotency-Key record. */
  write?: WriteStatement;
  /** A body streamed as it is made (a CSV export), instead of `body`: only for reads. */
  stream?: {
    contentType: string;
    chunks: AsyncIterable<string | Buffer>;
    /** Ended (connection closed) when no chunk is made or written for this long: a stalled download. */
    stallMs?: number;
  };
}
