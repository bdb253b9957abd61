import { type Executor, queryOne } from '../db/query';

/** A completed request's outcome, as stored under its key. */
export interface StoredOutcome {
  fingerprint: string;
  status: number;
  body: string;
}

/** Any integer: the advisory-lock namespace of idempotency keys (the key's hash is the other half). */
const LOCK_NAMESPACE = 71_003;

/** The stored outcome of a key within retention, if any (a plain read, outside any transaction). */
export async function findOutcome(db: Executor, accountId: number, key: string, since: Date): Promise<StoredOutcome | undefined> {
  return queryOne<StoredOutcome>(
    db,
    `SELECT fingerprint, status_code AS status, body FROM idempotency_keys
     WHERE account_id = $1 AND key = $2 AND created_at >= $3`,
    [accountId, key, since],
  );
}

export type SaveResult = 'saved' | 'in_use' | 'taken';

/**
 * Records the outcome in the same transaction as the change it guards, in one statement: a transaction
 * lock on the key (so a concurrent holder is detected, never waited for), then the insert. `in_use`: the
 * same key is being saved by a transaction still running; `taken`: one committed meanwhile. In both cases
 * the caller rolls back, so exactly one request's effect survives. A record past retention is replaced.
 */
export async function saveOutcome(
  db: Executor,
  record: { accountId: number; key: string; fingerprint: string; status: number; body: string; now: Date; since: Date },
): Promise<SaveResult> {
  const row = await queryOne<{ locked: boolean; saved: boolean }>(
    db,
    `WITH lock AS (SELECT pg_try_advisory_xact_lock($1::integer, hashtext($3::integer::text || ':' || $2::text)) AS locked),
     saved AS (
       INSERT INTO idempotency_keys (account_id, key, fingerprint, status_code, body, created_at)
       SELECT $3::integer, $2::text, $4, $5, $6, $7 FROM lock WHERE lock.locked
       ON CONFLICT (account_id, key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, status_code = EXCLUDED.status_code,
             body = EXCLUDED.body, created_at = EXCLUDED.created_at
         WHERE idempotency_keys.created_at < $8
       RETURNING 1)
     SELECT (SELECT locked FROM lock) AS locked, EXISTS (SELECT 1 FROM saved) AS saved`,
    [LOCK_NAMESPACE, record.key, record.accountId, record.fingerprint, record.status, record.body, record.now, record.since],
  );
  if (!row?.locked) return 'in_use';
  return row.saved ? 'saved' : 'taken';
}

/** Deletes records older than the retention, a bounded batch at a time; returns how many went. */
export async function purgeExpired(db: Executor, before: Date, batch = 5_000): Promise<number> {
  const row = await queryOne<{ count: number }>(
    db,
    `WITH gone AS (
       DELETE FROM idempotency_keys WHERE ctid = ANY (ARRAY(
         SELECT ctid FROM idempotency_keys WHERE created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED))
       RETURNING 1)
     SELECT count(*)::int AS count FROM gone`,
    [before, batch],
  );
  return row?.count ?? 0;
}
