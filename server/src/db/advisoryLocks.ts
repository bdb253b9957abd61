import { type Executor, queryOne } from './query';
import { type Sql, sql } from './sql';

/**
 * Namespaces of transaction-scoped advisory locks, one per kind of thing locked, so that a label name and
 * an idempotency key can never take each other's lock. The second half is a hash of (account, text).
 */
export const LockNamespace = {
  IDEMPOTENCY_KEY: 71_001,
  PERSON_LABEL_NAME: 71_002,
  VEHICLE_LABEL_NAME: 71_003,
  VEHICLE_PLATE: 71_004,
  /**
   * Whole account, by its id (not a hash): its vehicle feed's writers' triggers take it shared, a reader of
   * the feed exclusively for a moment (migrations 0014 and 0043, queries/vehicleChanges.ts).
   */
  VEHICLE_FEED: 71_005,
  /** An account's pass signing keys, while one is made or rotated (text: the account's id). */
  PASS_SIGNING_KEY: 71_007,
  /** A client address at a site, while a phone check-in from it is counted (docs/api.md, The visitor's phone). */
  VISIT_ADDRESS: 71_006,
  /**
   * A site's people feed, by the site's id (not a hash): its writers' triggers take it shared, a reader of
   * the feed exclusively for a moment (migrations 0030 and 0042, queries/peopleChanges.ts).
   */
  PEOPLE_FEED: 71_030,
} as const;

/** The SQL expression of a lock's second key, for statements that take the lock themselves. */
export const lockHashSql = (account: Sql, text: Sql): Sql =>
  sql`hashtext(${account}::integer::text || ':' || ${text}::text)`;

/**
 * Waits for and takes the lock on (account, text) in `namespace` until the transaction ends. `caseless`:
 * on PostgreSQL's `lower(text)`, the very function a case-insensitive unique index compares with
 * (JavaScript's toLowerCase differs for some letters, such as a final Greek sigma).
 */
export async function lockUntilCommit(
  db: Executor,
  namespace: (typeof LockNamespace)[keyof typeof LockNamespace],
  accountId: number,
  text: string,
  options: { caseless?: boolean } = {},
): Promise<void> {
  const key = lockHashSql(sql`${accountId}`, options.caseless ? sql`lower(${text})` : sql`${text}`);
  await queryOne(db, sql`SELECT pg_advisory_xact_lock(${namespace}::integer, ${key}) AS locked`);
}
