import { type Sql, empty, join, sql } from '../db/sql';

/**
 * Who is asking, as far as site visibility goes: every site of the account, or the token's or the staff
 * user's own list. Each part is a value, or SQL naming a column (a statement that reads the caller in the
 * same breath); the one of `tokenId` / `userId` that does not apply is null.
 */
export interface SiteViewer {
  accountId: number | Sql;
  tokenId: number | null | Sql;
  userId?: number | null | Sql;
  allSites: boolean | Sql;
}

/**
 * SQL: the site `siteId` (a column or a value) is one `viewer` may view. The one place this rule is
 * written; access is resolved against the database on every request (docs/api.md, Authentication).
 */
export function siteVisibleSql(viewer: SiteViewer, siteId: Sql): Sql {
  // A clause only for the kind of caller this is: a token's statements stay as they were before staff users.
  const lists: Sql[] = [];
  if (viewer.tokenId !== null) {
    lists.push(sql`EXISTS (
    SELECT 1 FROM token_sites ts
    WHERE ts.account_id = ${viewer.accountId}::integer AND ts.token_id = ${viewer.tokenId}::integer AND ts.site_id = ${siteId})`);
  }
  if (viewer.userId !== undefined && viewer.userId !== null) {
    lists.push(sql`EXISTS (
    SELECT 1 FROM staff_user_sites us
    WHERE us.account_id = ${viewer.accountId}::integer AND us.user_id = ${viewer.userId}::integer AND us.site_id = ${siteId})`);
  }
  return sql`(${viewer.allSites}::boolean${lists.length > 0 ? sql` OR ${join(lists, ' OR ')}` : empty})`;
}
