import { LockNamespace, lockUntilCommit } from '../db/advisoryLocks';
import { type Executor, queryOne } from '../db/query';
import { type Sql, sql } from '../db/sql';
import { problem } from '../errors/problem';

/** The window of `VISIT_CHECKINS_PER_HOUR` (docs/api.md, The visitor's phone). */
export const VISIT_WINDOW_MS = 60 * 60 * 1000;

interface AddressSite {
  accountId: number;
  siteId: number;
  /** The client address as the rate limits count it (`clientKey`: an IPv6 address by its /64). */
  address: string;
}

/**
 * Refuses (429, with Retry-After) a phone check-in from an address that made `limit` at this site in the
 * last hour. Counted in PostgreSQL, so it holds across instances; the lock (until the transaction ends)
 * makes concurrent check-ins from one address take turns, so the count is exact.
 */
export async function checkVisitCheckinLimit(
  db: Executor,
  input: AddressSite & { limit: number; now: Date },
): Promise<void> {
  await lockUntilCommit(db, LockNamespace.VISIT_ADDRESS, input.accountId, `${input.siteId} ${input.address}`);
  const since = new Date(input.now.getTime() - VISIT_WINDOW_MS);
  const row = await queryOne<{ free_at: Date | null }>(
    db,
    sql`SELECT (SELECT at FROM visit_address_checkins
                WHERE account_id = ${input.accountId} AND site_id = ${input.siteId} AND address = ${input.address}
                  AND at > ${since}
                ORDER BY at DESC OFFSET ${input.limit - 1} LIMIT 1) AS free_at`,
  );
  if (!row?.free_at) return;
  const seconds = Math.max(1, Math.ceil((row.free_at.getTime() + VISIT_WINDOW_MS - input.now.getTime()) / 1000));
  throw problem(
    'RATE_LIMITED',
    `This address has checked in ${input.limit} times at this site in the last hour; retry in ${seconds} s.`,
    { headers: { 'Retry-After': String(seconds) } },
  );
}

/** The CTE that counts this check-in for its address, when `created` holds (the check-in went in). */
export const countVisitCheckinCte = (input: AddressSite & { now: Date }, created: Sql): Sql => sql`
  count_checkin AS (
    INSERT INTO visit_address_checkins (account_id, site_id, address, at)
    SELECT ${input.accountId}::integer, ${input.siteId}::integer, ${input.address}, ${input.now}::timestamptz
    WHERE ${created})`;

/** Forgets the addresses counted more than an hour ago (with the idempotency purge, every 10 minutes). */
export async function purgeVisitAddresses(db: Executor, now: Date): Promise<void> {
  await queryOne(
    db,
    sql`WITH gone AS (DELETE FROM visit_address_checkins WHERE at <= ${new Date(now.getTime() - VISIT_WINDOW_MS)} RETURNING 1)
        SELECT count(*)::int AS count FROM gone`,
  );
}
