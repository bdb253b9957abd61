import { type Executor, queryOne } from '../db/query';

export interface Claim {
  locked: boolean;
  fingerprint: string | null;
  status_code: number | null;
  body: string | null;
}

/** Takes the key's lock for this transaction and reads its stored result (one round trip). */
export async function claimKey(db: Executor, accountId: number, key: string, since: Date): Promise<Claim> {
  const claim = await queryOne<Claim>(db, 'SELECT * FROM idempotency_claim($1, $2, $3)', [accountId, key, since]);
  if (!claim) throw new Error('idempotency_claim returned no row');
  return claim;
}

/** Records the outcome in the same transaction as the change it guards; an expired record is replaced. */
export async function saveOutcome(
  db: Executor,
  record: { accountId: number; key: string; fingerprint: string; status: number; body: string; now: Date },
): Promise<void> {
  await queryOne(
    db,
    `INSERT INTO idempotency_keys (account_id, key, fingerprint, status_code, body, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (account_id, key) DO UPDATE
       SET fingerprint = EXCLUDED.fingerprint, status_code = EXCLUDED.status_code,
           body = EXCLUDED.body, created_at = EXCLUDED.created_at`,
    [record.accountId, record.key, record.fingerprint, record.status, record.body, record.now],
  );
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
