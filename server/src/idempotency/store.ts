import { LockNamespace, lockHashSql } from '../db/advisoryLocks';
import { type Executor, type Prepared, prepared, queryOne } from '../db/query';

/** A completed request's outcome, as stored under its key. */
export interface StoredOutcome {
  fingerprint: string;
  status: number;
  body: string;
  /** Response headers the handler set (an ETag, say): a replay carries them too. */
  headers: Record<string, string>;
}


const FIND = prepared(`
  SELECT fingerprint, status_code AS status, body, headers FROM idempotency_keys
  WHERE account_id = $1 AND key = $2 AND created_at >= $3`);

/** The stored outcome of a key within retention, if any (a plain read, outside any transaction). */
export async function findOutcome(db: Executor, accountId: number, key: string, since: Date): Promise<StoredOutcome | undefined> {
  return queryOne<StoredOutcome>(db, FIND, [accountId, key, since]);
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

/** A write statement: data-modifying CTEs that run only when `guard` (SQL) holds, on binds $1…$n. */
export interface GuardedWrite {
  /** A module-level function whose text depends on `guard` alone: the statement built from it is kept per function. */
  ctes: (guard: string) => string;
  bind: unknown[];
  /**
   * For a write conditional on what was read (optimistic concurrency): SQL over the CTEs that is true when
   * the write applied. If the guard held and this is false, the whole statement is undone, the key's record
   * included, and it fails with `isStaleWrite`: the command should run again on fresh data.
   */
  applied?: string;
}

/** SQLSTATE of `gatehouse_stale_write()` (migration 0007). */
const STALE_WRITE = 'GH001';

/** The write's row changed between the command's read and its write; nothing of it was kept. */
export const isStaleWrite = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === STALE_WRITE;

/**
 * A statement's text, built once per shape: it depends only on the write's CTEs (a module-level function of
 * each command), its number of binds and its `applied` check, not on the values. Built per request, the
 * 1–2 KB text was concatenated and hashed again by `prepared` on every write.
 */
const texts = new WeakMap<GuardedWrite['ctes'], Map<string, Prepared>>();
const WITHOUT_WRITE = () => '';
function statementFor(shape: string, write: GuardedWrite | undefined, build: () => string): Prepared {
  const ctes = write?.ctes ?? WITHOUT_WRITE;
  let known = texts.get(ctes);
  if (!known) texts.set(ctes, (known = new Map()));
  const id = `${shape}|${write?.bind.length ?? 0}|${write?.applied ?? ''}`;
  let statement = known.get(id);
  if (!statement) known.set(id, (statement = prepared(build())));
  return statement;
}

/** A select-list item that undoes the statement when `guard` held but the write did not apply. */
const staleCheck = (write: GuardedWrite | undefined, guard: string) =>
  write?.applied ? `, CASE WHEN (${guard}) AND NOT (${write.applied}) THEN gatehouse_stale_write() END AS stale` : '';

/**
 * One statement that records the outcome and, in the same statement, runs `write` (if any) only when the
 * record went in: a transaction lock on the key first (a concurrent holder is detected, never waited for),
 * then the insert. `in_use`: the same key is being saved by a transaction still running; `taken`: one
 * committed meanwhile. In both cases nothing of this request is kept (the guarded CTEs did not run, or the
 * caller rolls back), so exactly one request's effect survives. A record past retention is replaced.
 */
export async function saveOutcome(db: Executor, record: OutcomeRecord, write?: GuardedWrite): Promise<SaveResult> {
  const bind = write ? [...write.bind] : [];
  const at = (value: unknown) => {
    bind.push(value);
    return `$${bind.length}`;
  };
  const namespace = at(LockNamespace.IDEMPOTENCY_KEY);
  const key = at(record.key);
  const account = at(record.accountId);
  const fingerprint = at(record.fingerprint);
  const status = at(record.status);
  const body = at(record.body);
  const now = at(record.now);
  const since = at(record.since);
  const headers = at(JSON.stringify(record.headers));
  const row = await queryOne<{ locked: boolean; saved: boolean }>(
    db,
    // One text per route's write (a handful in all): prepared, so PostgreSQL plans it once per connection.
    statementFor('save', write, () => `WITH lock AS (SELECT pg_try_advisory_xact_lock(${namespace}::integer, ${lockHashSql(account, key)}) AS locked),
     saved AS (
       INSERT INTO idempotency_keys (account_id, key, fingerprint, status_code, body, headers, created_at)
       SELECT ${account}::integer, ${key}::text, ${fingerprint}, ${status}, ${body}, ${headers}::jsonb, ${now}
       FROM lock WHERE lock.locked
       ON CONFLICT (account_id, key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, status_code = EXCLUDED.status_code,
             body = EXCLUDED.body, headers = EXCLUDED.headers, created_at = EXCLUDED.created_at
         WHERE idempotency_keys.created_at < ${since}
       RETURNING 1)${write ? `,\n     ${write.ctes('EXISTS (SELECT 1 FROM saved)')}` : ''}
     SELECT (SELECT locked FROM lock) AS locked, EXISTS (SELECT 1 FROM saved) AS saved${staleCheck(write, 'EXISTS (SELECT 1 FROM saved)')}`),
    bind,
  );
  if (!row?.locked) return 'in_use';
  return row.saved ? 'saved' : 'taken';
}

/** Runs a guarded write on its own (no Idempotency-Key): the guard always holds. */
export async function runGuardedWrite(db: Executor, write: GuardedWrite): Promise<void> {
  await queryOne(db, statementFor('run', write, () => `WITH ${write.ctes('true')} SELECT 1 AS ok${staleCheck(write, 'true')}`), write.bind);
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
