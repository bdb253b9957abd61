import type { BadgeSize } from '../../../shared/src/domain/badge';
import type { Language } from '../../../shared/src/messages/languages';
import type { BadgeSettings, VisitSettings } from '../../../shared/src/schemas/sites';
import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';
import { notFound } from '../errors/problem';

/**
 * A site's badge and phone check-in settings (docs/running-a-site.md, Badges and The visitor's phone), and
 * the language its visitors are greeted in (docs/languages.md).
 */
export async function readSiteSettings(
  db: Executor,
  key: { accountId: number; siteId: number },
): Promise<{ badge: BadgeSettings; visit: VisitSettings; defaultLanguage: Language }> {
  const row = await queryOne<{
    badge_enabled: boolean;
    badge_size: BadgeSize;
    visit_code: string;
    visit_requires_approval: boolean;
    default_language: Language;
  }>(
    db,
    sql`SELECT badge_enabled, badge_size, visit_code, visit_requires_approval, default_language FROM sites
        WHERE account_id = ${key.accountId} AND id = ${key.siteId}`,
    { prepare: true },
  );
  if (!row) throw notFound(`Site ${key.siteId} does not exist.`);
  return {
    badge: { enabled: row.badge_enabled, size: row.badge_size },
    visit: { code: row.visit_code, requiresApproval: row.visit_requires_approval },
    defaultLanguage: row.default_language,
  };
}

/** A site's badge settings (docs/running-a-site.md, Badges). */
export async function readSiteBadge(db: Executor, key: { accountId: number; siteId: number }): Promise<BadgeSettings> {
  return (await readSiteSettings(db, key)).badge;
}
