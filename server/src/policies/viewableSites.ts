import type { Principal } from '../auth/principal';
import { type Executor, queryRows } from '../db/query';
import { notFound } from '../errors/problem';

/**
 * The sites a search may span, resolved against the token on every request (CONTRACT §5):
 * undefined means "every site of the account" (an all-sites token asking for all).
 * A requested site the token cannot view is a 404, the same as an unknown one.
 */
export async function viewableSites(db: Executor, principal: Principal, requested?: number[]): Promise<number[] | undefined> {
  if (requested && requested.length > 0) {
    const wanted = [...new Set(requested)];
    const rows = await queryRows<{ id: number }>(
      db,
      `SELECT s.id FROM sites s
       WHERE s.account_id = $1 AND s.id = ANY($2::bigint[])
         AND ($3 OR EXISTS (SELECT 1 FROM token_sites ts
                            WHERE ts.account_id = s.account_id AND ts.token_id = $4 AND ts.site_id = s.id))`,
      [principal.accountId, wanted, principal.allSites, principal.tokenId],
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
    'SELECT site_id FROM token_sites WHERE account_id = $1 AND token_id = $2 ORDER BY site_id',
    [principal.accountId, principal.tokenId],
  );
  return rows.map((row) => row.site_id);
}
