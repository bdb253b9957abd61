import { type Executor, queryOne, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { notFound } from '../errors/problem';
import { afterId, cursorScope, idPage } from './cursor';

/** A page of the installation's accounts, by id. */
export async function listAccounts(db: Executor, page: { limit: number; cursor?: string }) {
  const scope = cursorScope('accounts', {});
  const rows = await queryRows<{ id: number; name: string }>(
    db,
    sql`SELECT id, name FROM accounts WHERE id > ${afterId(page.cursor, scope)} ORDER BY id LIMIT ${page.limit + 1}`,
  );
  return idPage(rows, page.limit, (row) => ({ accountId: row.id, name: row.name }), scope);
}

/** 404 unless the account exists. */
export async function checkAccount(db: Executor, accountId: number): Promise<void> {
  const row = await queryOne(db, sql`SELECT id FROM accounts WHERE id = ${accountId}`);
  if (!row) throw notFound(`Account ${accountId} does not exist.`);
}

/** A page of one account's sites (archived ones too), by id. */
export async function listAccountSites(db: Executor, accountId: number, page: { limit: number; cursor?: string }) {
  await checkAccount(db, accountId);
  const scope = cursorScope('admin-sites', { accountId });
  const rows = await queryRows<{ id: number; account_id: number; name: string; timezone: string }>(
    db,
    sql`SELECT id, account_id, name, timezone FROM sites
        WHERE account_id = ${accountId} AND id > ${afterId(page.cursor, scope)} ORDER BY id LIMIT ${page.limit + 1}`,
  );
  return idPage(
    rows,
    page.limit,
    (row) => ({ siteId: row.id, accountId: row.account_id, name: row.name, timezone: row.timezone }),
    scope,
  );
}
