import type { BadgeSize } from '../../../shared/src/domain/badge';
import type { Language } from '../../../shared/src/messages/languages';
import type { BadgeSettings } from '../../../shared/src/schemas/sites';
import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';
import { notFound } from '../errors/problem';

/** A site's settings beyond its name and zone: badges (docs/running-a-site.md) and its default language. */
export interface SiteSettings {
  badge: BadgeSettings;
  defaultLanguage: Language;
}

export async function readSiteSettings(
  db: Executor,
  key: { accountId: number; siteId: number },
): Promise<SiteSettings> {
  const row = await queryOne<{ badge_enabled: boolean; badge_size: BadgeSize; default_language: Language }>(
    db,
    sql`SELECT badge_enabled, badge_size, default_language FROM sites WHERE account_id = ${key.accountId} AND id = ${key.siteId}`,
    { prepare: true },
  );
  if (!row) throw notFound(`Site ${key.siteId} does not exist.`);
  return { badge: { enabled: row.badge_enabled, size: row.badge_size }, defaultLanguage: row.default_language };
}
