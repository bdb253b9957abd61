import type { BadgeSize } from '../../../shared/src/domain/badge';
import type { Language } from '../../../shared/src/messages/languages';
import type { Principal } from '../auth/principal';
import { type Executor, queryRows } from '../db/query';
import { empty, sql } from '../db/sql';
import { siteVisibleSql } from '../policies/siteVisibility';

export interface SiteListRow {
  id: number;
  name: string;
  timezone: string;
  archived_at: Date | null;
  badge_enabled: boolean;
  badge_size: BadgeSize;
  default_language: Language;
  visit_code: string;
  visit_requires_approval: boolean;
}

/**
 * A page of the sites the principal can view, by id (one more than `limit`, to tell whether more follow);
 * archived ones only when asked for.
 */
export async function listViewableSites(
  db: Executor,
  principal: Principal,
  input: { afterId: number; limit: number; archived?: boolean },
): Promise<SiteListRow[]> {
  return queryRows<SiteListRow>(
    db,
    sql`SELECT s.id, s.name, s.timezone, s.archived_at, s.badge_enabled, s.badge_size, s.visit_code,
          s.visit_requires_approval, s.default_language FROM sites s
        WHERE s.account_id = ${principal.accountId} AND s.id > ${input.afterId} AND ${siteVisibleSql(principal, sql`s.id`)}
          ${input.archived ? empty : sql`AND s.archived_at IS NULL`}
        ORDER BY s.id LIMIT ${input.limit + 1}`,
  );
}
