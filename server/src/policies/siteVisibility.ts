import { type Sql, sql } from '../db/sql';

/**
 * Who is asking, as far as site visibility goes: every site of the account, or the token's own list. Each
 * part is a value, or SQL naming a column (a statement that reads the token in the same breath).
 */
export interface SiteViewer {
  accountId: number | Sql;
  tokenId: number | Sql;
  allSites: boolean | Sql;
}

/**
 * SQL: the site `siteId` (a column or a value) is one `viewer` may view. The one place this rule is
 * written; access is resolved against the database on every request (docs/api.md, Authentication).
 */
export function siteVisibleSql(viewer: SiteViewer, siteId: Sql): Sql {
  return sql`(${viewer.allSites}::boolean OR EXISTS (
    SELECT 1 FROM token_sites ts
    WHERE ts.account_id = ${viewer.accountId}::integer AND ts.token_id = ${viewer.tokenId}::integer AND ts.site_id = ${siteId}))`;
}
