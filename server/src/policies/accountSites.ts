import { type Executor, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { validationFailed } from '../errors/problem';

/** 422 unless every site id is one of the account's (a token's or a staff user's site list). */
export async function checkSitesBelong(
  db: Executor,
  input: { accountId: number; siteIds: number[]; owner: string },
): Promise<void> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`SELECT id FROM sites WHERE account_id = ${input.accountId} AND id = ANY(${input.siteIds}::bigint[])`,
  );
  if (rows.length !== new Set(input.siteIds).size) {
    throw validationFailed([{ path: 'siteIds', message: `Every site must belong to the ${input.owner}’s account` }]);
  }
}
