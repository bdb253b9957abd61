import { KIOSK_COLUMNS, type KioskRow } from './kioskRows';
import { type Executor, queryRows } from '../db/query';
import { empty, sql } from '../db/sql';

/** A page of the live kiosks on `siteIds` (undefined: every site of the account), newest first. */
export async function listKioskRows(
  db: Executor,
  input: { accountId: number; siteIds: number[] | undefined; beforeId: number | null; limit: number },
): Promise<KioskRow[]> {
  return queryRows<KioskRow>(
    db,
    sql`SELECT ${KIOSK_COLUMNS} FROM kiosks k
        WHERE k.account_id = ${input.accountId} AND k.revoked_at IS NULL
          ${input.siteIds === undefined ? empty : sql`AND k.site_id = ANY(${input.siteIds}::int[])`}
          ${input.beforeId === null ? empty : sql`AND k.id < ${input.beforeId}`}
        ORDER BY k.id DESC LIMIT ${input.limit + 1}`,
  );
}
