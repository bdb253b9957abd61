import { type Executor, inTransaction, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { createLink } from './staffLinks';

/** At most this many accounts get a link printed at a start (the rest: the admin API, or the next starts). */
const MAX_PRINTED = 10;

export interface SetupLink {
  accountId: number;
  accountName: string;
  code: string;
}

/**
 * A fresh setup link for every account that has no enabled owner yet (a start prints them): single use,
 * 24 hours. An older unused setup link of the account stops working: the newest printed one is the one.
 */
export async function issueSetupLinks(database: Executor, now: Date): Promise<{ links: SetupLink[]; more: number }> {
  return inTransaction(database, async (db) => {
    const accounts = await queryRows<{ id: number; name: string }>(
      db,
      sql`SELECT a.id, a.name FROM accounts a
          WHERE NOT EXISTS (SELECT 1 FROM staff_users u WHERE u.account_id = a.id AND u.role = 'owner' AND NOT u.disabled)
          ORDER BY a.id LIMIT ${MAX_PRINTED + 1}`,
    );
    const links: SetupLink[] = [];
    for (const account of accounts.slice(0, MAX_PRINTED)) {
      await queryRows(
        db,
        sql`DELETE FROM staff_links WHERE account_id = ${account.id} AND kind = 'setup' AND used_at IS NULL`,
      );
      links.push({
        accountId: account.id,
        accountName: account.name,
        code: await createLink(db, { accountId: account.id, kind: 'setup', userId: null, now }),
      });
    }
    return { links, more: Math.max(0, accounts.length - MAX_PRINTED) };
  });
}
