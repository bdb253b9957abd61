import type { AccountLookup } from '../auth/authentication';
import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';

/** A completed request's outcome, as stored under its key. */
export interface StoredOutcome {
  fingerprint: string;
  status: number;
  body: string;
  /** Response headers the handler set (an ETag, say): a replay carries them too. */
  headers: Record<string, string>;
}

/** A stored outcome's columns as a statement reads them beside its own (all null: none stored). */
export interface StoredColumns {
  stored_fingerprint: string | null;
  stored_status: number | null;
  stored_body: string | null;
  stored_headers: Record<string, string> | null;
}

/**
 * The stored outcome of `key` within retention, read in the caller's own statement (auth/authenticate.ts):
 * a replay, the most common retry, costs no round trip of its own.
 */
export const storedOutcomeLookup = (key: string, since: Date): AccountLookup<StoredOutcome | undefined> => ({
  columns: sql`k.fingerprint AS stored_fingerprint, k.status_code AS stored_status, k.body AS stored_body, k.headers AS stored_headers`,
  join: (accountId) =>
    sql`LEFT JOIN idempotency_keys k ON k.account_id = ${accountId} AND k.key = ${key}::text AND k.created_at >= ${since}::timestamptz`,
  read: (row) => storedOutcomeOf(row as unknown as StoredColumns),
});

/** The outcome those columns hold, if any. */
export function storedOutcomeOf(columns: StoredColumns): StoredOutcome | undefined {
  return columns.stored_fingerprint !== null && columns.stored_status !== null && columns.stored_body !== null
    ? {
        fingerprint: columns.stored_fingerprint,
        status: columns.stored_status,
        body: columns.stored_body,
        headers: columns.stored_headers ?? {},
      }
    : undefined;
}

/** The stored outcome of a key within retention, if any (a plain read, outside any transaction). */
export async function findOutcome(
  db: Executor,
  accountId: number,
  key: string,
  since: Date,
): Promise<StoredOutcome | undefined> {
  return queryOne<StoredOutcome>(
    db,
    sql`SELECT fingerprint, status_code AS status, body, headers FROM idempotency_keys
        WHERE account_id = ${accountId} AND key = ${key} AND created_at >= ${since}`,
    { prepare: true },
  );
}
