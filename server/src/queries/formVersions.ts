import type { CheckinConfigUpdate } from '../../../shared/src/schemas/sites';
import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';

/** One kept version of a site's check-in form (migration 0021 keeps every one), or undefined. */
export async function findFormVersion(
  db: Executor,
  key: { accountId: number; siteId: number; version: number },
): Promise<CheckinConfigUpdate | undefined> {
  const row = await queryOne<{ checkin_config: CheckinConfigUpdate }>(
    db,
    sql`SELECT checkin_config FROM site_form_versions
        WHERE account_id = ${key.accountId} AND site_id = ${key.siteId} AND version = ${key.version}`,
  );
  return row?.checkin_config;
}
