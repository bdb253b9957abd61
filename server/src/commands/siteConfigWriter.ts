import type { CheckinConfigUpdate } from '../../../shared/src/schemas/sites';
import type { SiteAccess } from '../auth/principal';
import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';

/** Replaces a site's check-in form; its version moves on, so its ETag changes and kiosks fetch it again. */
export async function replaceCheckinConfig(
  db: Executor,
  input: { accountId: number; site: SiteAccess; config: CheckinConfigUpdate; now: Date },
): Promise<SiteAccess> {
  const { accountId, site, config, now } = input;
  const row = await queryOne<{ config_version: number }>(
    db,
    sql`UPDATE sites SET checkin_config = ${JSON.stringify(config)}, config_version = config_version + 1, updated_at = ${now}
        WHERE account_id = ${accountId} AND id = ${site.siteId} RETURNING config_version`,
  );
  return { ...site, checkinConfig: config, configVersion: row?.config_version ?? site.configVersion + 1 };
}
