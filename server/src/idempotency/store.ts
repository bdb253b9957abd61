import { LockNamespace, lockHashSql } from '../db/advisoryLocks';
import { type Executor, queryOne } from '../db/query';
import { type Sql, empty, sql } from '../db/sql';
import type { GuardedWrite } from '../reply';

/** A completed request's outcome, as stored under its key. */
export interface StoredOutcome {
  fingerprint: string;
  status: number;
  body: string;
  /** Response headers the handler set (an ETag, say): a replay carries them too. */
  headers: Record<string, string>;
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

export type SaveResult = 'saved' | 'in_use' | 'taken';

export interface OutcomeRecord {
  accountId: number;
  key: string;
  fingerprint: string;
  status: number;
  body: string;
  headers: Record<string, string>;
  now: Date;
  since: Date;
}

/** SQLSTATE of `gatehouse_stale_write()` (migration 0007). */
const STALE_WRITE = 'GH001';

/** The write's row changed between the command's read and its write; nothing of it was kept. */
export const isStaleWrite = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === STALE_WRITE;

/** A select-list item that undoes the statement when `guard` held but the write did not apply. */
const staleCheck = (write: GuardedWrite | undefined, guard: Sql): Sql =>
  write?.applied
    ? sql`, CASE WHEN (${guard}) AND NOT (${write.applied}) THEN gatehouse_stale_write() END AS stale`
    : empty;

const SAVED = sql`EXISTS (SELECT 1 FROM saved)`;

/**
 * Records the outcome and, in the same statement, runs `write` only when the record went in. The key's
 * transaction lock detects a concurrent holder without waiting (`in_use`); `taken`: one committed meanwhile.
 * Either way nothing of this request is kept, so exactly one effect survives. Expired records are replaced.
 */
export async function saveOutcome(db: Executor, record: OutcomeRecord, write?: GuardedWrite): Promise<SaveResult> {
  const account = sql`${record.accountId}::integer`;
  const key = sql`${record.key}::text`;
  const row = await queryOne<{ locked: boolean; saved: boolean }>(
    db,
    sql`WITH lock AS (SELECT pg_try_advisory_xact_lock(${LockNamespace.IDEMPOTENCY_KEY}::integer, ${lockHashSql(account, key)}) AS locked),
     saved AS (
       INSERT INTO idempotency_keys (account_id, key, fingerprint, status_code, body, headers, created_at)
       SELECT ${account}, ${key}, ${record.fingerprint}, ${record.status}, ${record.body}, ${JSON.stringify(record.headers)}::jsonb, ${record.now}
       FROM lock WHERE lock.locked
       ON CONFLICT (account_id, key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, status_code = EXCLUDED.status_code,
             body = EXCLUDED.body, headers = EXCLUDED.headers, created_at = EXCLUDED.created_at
         WHERE idempotency_keys.created_at < ${record.since}
       RETURNING 1)${
         write
           ? sql`,
     ${write.ctes(SAVED)}`
           : empty
       }
     SELECT (SELECT locked FROM lock) AS locked, ${SAVED} AS saved${staleCheck(write, SAVED)}`,
    // One text per route's write (a handful in all): prepared, so PostgreSQL plans it once per connection.
    { prepare: true },
  );
  if (!row?.locked) return 'in_use';
  return row.saved ? 'saved' : 'taken';
}

/** Runs a guarded write on its own (no Idempotency-Key): the guard always holds. */
export async function runGuardedWrite(db: Executor, write: GuardedWrite): Promise<void> {
  const always = sql`true`;
  await queryOne(db, sql`WITH ${write.ctes(always)} SELECT 1 AS ok${staleCheck(write, always)}`, { prepare: true });
}

/** Deletes records older than the retention, a bounded batch at a time; returns how many went. */
export async function purgeExpired(db: Executor, before: Date, batch = 5_000): Promise<number> {
  const row = await queryOne<{ count: number }>(
    db,
    sql`WITH gone AS (
       DELETE FROM idempotency_keys WHERE ctid = ANY (ARRAY(
         SELECT ctid FROM idempotency_keys WHERE created_at < ${before} LIMIT ${batch} FOR UPDATE SKIP LOCKED))
       RETURNING 1)
     SELECT count(*)::int AS count FROM gone`,
  );
  return row?.count ?? 0;
}
