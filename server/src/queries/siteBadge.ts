import type { BadgeSize } from '../../../shared/src/domain/badge';
import type { BadgeSettings } from '../../../shared/src/schemas/sites';
import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';
import { notFound } from '../errors/problem';

/** A site's badge settings (docs/running-a-site.md, Badges). */
export async function readSiteBadge(db: Executor, key: { accountId: number; siteId: number }): Promise<BadgeSettings> {
  const row = await queryOne<{ badge_enabled: boolean; badge_size: BadgeSize }>(
    db,
    sql`SELECT badge_enabled, badge_size FROM sites WHERE account_id = ${key.accountId} AND id = ${key.siteId}`,
    { prepare: true },
  );
  if (!row) throw notFound(`Site ${key.siteId} does not exist.`);
  return { enabled: row.badge_enabled, size: row.badge_size };
}
