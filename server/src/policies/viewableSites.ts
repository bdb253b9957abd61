import type { Principal } from '../auth/principal';
import { type Executor, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { notFound } from '../errors/problem';
import { siteVisibleSql } from './siteVisibility';

/**
 * The sites a search may span, resolved against the token on every request (docs/api.md, Search):
 * undefined means "every site of the account" (an all-sites token asking for all).
 * A requested site the token cannot view is a 404, the same as an unknown one.
 */
export async function viewableSites(
  db: Executor,
  principal: Principal,
  requested?: number[],
): Promise<number[] | undefined> {
  if (requested && requested.length > 0) {
    const wanted = [...new Set(requested)];
    const rows = await queryRows<{ id: number }>(
      db,
      sql`SELECT s.id FROM sites s
          WHERE s.account_id = ${principal.accountId} AND s.id = ANY(${wanted}::bigint[]) AND ${siteVisibleSql(principal, sql`s.id`)}`,
    );
    if (rows.length !== wanted.length) {
      const found = new Set(rows.map((row) => row.id));
      const missing = wanted.find((id) => !found.has(id));
      throw notFound(`Site ${missing} does not exist or is not visible to this token.`);
    }
    return wanted;
  }
  if (principal.allSites) return undefined;
  const rows = await queryRows<{ site_id: number }>(
    db,
    // In order: the list is part of a search's filters, which its cursors are bound to.
    sql`SELECT s.id AS site_id FROM sites s
        WHERE s.account_id = ${principal.accountId} AND ${siteVisibleSql(principal, sql`s.id`)} ORDER BY s.id`,
  );
  return rows.map((row) => row.site_id);
}
