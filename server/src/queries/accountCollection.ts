import { type Executor, queryOne, queryRows } from '../db/query';
import { raw, sql } from '../db/sql';

/** A table of one account's things (labels, watchlist entries), each reached by its id. */
export interface AccountCollection<Row extends { id: number }> {
  table: string;
  /** The select list the rows are read with (and `present` takes). */
  columns: string;
  /** What one is called in messages, e.g. "vehicle label". */
  noun: string;
  present: (row: Row) => unknown;
}

/** A page of the account's rows after `afterId`, by id (one more than `limit`, to tell whether more follow). */
export async function listCollection<Row extends { id: number }>(
  db: Executor,
  collection: AccountCollection<Row>,
  input: { accountId: number; afterId: number; limit: number },
): Promise<Row[]> {
  return queryRows<Row>(
    db,
    sql`SELECT ${raw(collection.columns)} FROM ${raw(collection.table)}
        WHERE account_id = ${input.accountId} AND id > ${input.afterId} ORDER BY id LIMIT ${input.limit + 1}`,
  );
}

/** One row of the account by id, or undefined. */
export async function findInCollection<Row extends { id: number }>(
  db: Executor,
  collection: AccountCollection<Row>,
  accountId: number,
  id: number,
): Promise<Row | undefined> {
  return queryOne<Row>(
    db,
    sql`SELECT ${raw(collection.columns)} FROM ${raw(collection.table)} WHERE account_id = ${accountId} AND id = ${id}`,
  );
}
