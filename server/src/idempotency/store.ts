import { LockNamespace, lockHashSql } from '../db/advisoryLocks';
import { type Executor, queryOne } from '../db/query';
import { type Sql, empty, sql } from '../db/sql';

/** A request's outcome, to store under its key. */
export interface OutcomeRecord {
  accountId: number;
  key: string;
  fingerprint: string;
  status: number;
  body: string;
  headers: Record<string, string>;
  now: Date;
  /** Records older than this count as absent, and are replaced. */
  since: Date;
}

/** The key's part of a write statement: its CTEs, and SQL saying whether its lock and its record were had. */
export interface KeyClaim {
  ctes: Sql;
  locked: Sql;
  claimed: Sql;
}

/**
 * Claims the key for this request: its transaction lock, tried without waiting (`locked` false: another
 * request with the key is running), then its record, written only when no live one exists (`claimed`
 * false though locked: one committed meanwhile) and `onlyIf` holds (the caller is still who it was:
 * routes/pipeline/rememberedCaller.ts). Expired records are replaced.
 */
export function keyClaim(record: OutcomeRecord, onlyIf?: Sql): KeyClaim {
  const account = sql`${record.accountId}::integer`;
  const key = sql`${record.key}::text`;
  return {
    ctes: sql`lock AS (SELECT pg_try_advisory_xact_lock(${LockNamespace.IDEMPOTENCY_KEY}::integer, ${lockHashSql(account, key)}) AS locked),
  saved AS (
    INSERT INTO idempotency_keys (account_id, key, fingerprint, status_code, body, headers, created_at)
    SELECT ${account}, ${key}, ${record.fingerprint}, ${record.status}, ${record.body}, ${JSON.stringify(record.headers)}::jsonb, ${record.now}
    FROM lock WHERE lock.locked${onlyIf ? sql` AND ${onlyIf}` : empty}
    ON CONFLICT (account_id, key) DO UPDATE
      SET fingerprint = EXCLUDED.fingerprint, status_code = EXCLUDED.status_code,
          body = EXCLUDED.body, headers = EXCLUDED.headers, created_at = EXCLUDED.created_at
      WHERE idempotency_keys.created_at < ${record.since}
    RETURNING 1)`,
    locked: sql`(SELECT locked FROM lock)`,
    claimed: sql`EXISTS (SELECT 1 FROM saved)`,
  };
}

/** A write without a key: nothing to lock or record, and the write goes ahead (when `onlyIf` holds). */
export const noKey = (onlyIf?: Sql): KeyClaim => ({
  ctes: sql`lock AS (SELECT true AS locked)`,
  locked: sql`true`,
  claimed: onlyIf ?? sql`true`,
});

/** SQLSTATE of `gatehouse_stale_write()` (migration 0007). */
const STALE_WRITE = 'GH001';

/** The write's row changed between the command's read and its write; nothing of it was kept. */
export const isStaleWrite = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === STALE_WRITE;

/** A select-list item that undoes the statement when the key was claimed but the write did not apply. */
export const staleCheck = (claim: KeyClaim, applied: Sql): Sql =>
  sql`CASE WHEN (${claim.claimed}) AND NOT (${applied}) THEN gatehouse_stale_write() END AS stale`;

export type SaveResult = 'saved' | 'in_use' | 'taken';

/** How a write statement's `locked` and `saved` columns read. */
export const saveResultOf = (row: { locked: boolean; saved: boolean } | undefined): SaveResult =>
  !row?.locked ? 'in_use' : row.saved ? 'saved' : 'taken';

/**
 * Records an outcome that comes with no write of its own (a refusal stored under the key, or the key of a
 * transaction-mode write, inside its transaction). `in_use` and `taken` as for a claim: nothing was kept.
 */
export async function saveOutcome(db: Executor, record: OutcomeRecord): Promise<SaveResult> {
  const claim = keyClaim(record);
  const row = await queryOne<{ locked: boolean; saved: boolean }>(
    db,
    sql`WITH ${claim.ctes} SELECT ${claim.locked} AS locked, ${claim.claimed} AS saved`,
    { prepare: true },
  );
  return saveResultOf(row);
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
