import type { Principal } from '../auth/principal';
import { type Executor, queryOne, queryRows } from '../db/query';
import { type Sql, empty, raw, sql } from '../db/sql';
import { siteVisibleSql } from '../policies/siteVisibility';
import type { HostRow } from '../presenters/host';

/** Every column a host is read with, its sites aggregated in the same statement. */
export const HOST_COLUMNS = raw(`h.id, h.name, h.email, h.phone, h.all_sites, h.notify_by, h.chat_webhook_url,
  h.language, h.created_at,
  COALESCE((SELECT array_agg(hs.site_id ORDER BY hs.site_id) FROM host_sites hs
            WHERE hs.account_id = h.account_id AND hs.host_id = h.id), '{}') AS site_ids`);

/**
 * SQL: the host `h` is one `principal` may see and change (docs/notifications.md, Hosts). A caller with every
 * site sees every host; one limited to some sites sees the hosts whose sites it can all view (as with
 * webhook subscriptions), so nobody changes a host of a site they cannot see.
 */
export function hostVisibleSql(principal: Principal): Sql {
  if (principal.allSites) return sql`true`;
  return sql`(NOT h.all_sites AND NOT EXISTS (
    SELECT 1 FROM host_sites hs WHERE hs.account_id = h.account_id AND hs.host_id = h.id
      AND NOT ${siteVisibleSql(principal, sql`hs.site_id`)}))`;
}

/** One host the principal may see, or undefined (`lock`: FOR UPDATE, inside a transaction). */
export async function findVisibleHost(
  db: Executor,
  principal: Principal,
  hostId: number,
  lock = false,
): Promise<HostRow | undefined> {
  return queryOne<HostRow>(
    db,
    sql`SELECT ${HOST_COLUMNS} FROM hosts h
        WHERE h.account_id = ${principal.accountId} AND h.id = ${hostId} AND ${hostVisibleSql(principal)}
        ${lock ? sql`FOR UPDATE OF h` : empty}`,
  );
}

/** One host of the account by id, whoever may see it (a host just written, read back). */
export async function findHost(db: Executor, accountId: number, hostId: number): Promise<HostRow | undefined> {
  return queryOne<HostRow>(
    db,
    sql`SELECT ${HOST_COLUMNS} FROM hosts h WHERE h.account_id = ${accountId} AND h.id = ${hostId}`,
  );
}

/** A page of the hosts the principal may see, oldest first (`limit + 1` rows); `q`: prefix of name or email. */
export async function listHosts(
  db: Executor,
  principal: Principal,
  filter: { afterId: number; limit: number; q?: string; siteId?: number },
): Promise<HostRow[]> {
  const prefix = filter.q ? `${filter.q.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%` : null;
  return queryRows<HostRow>(
    db,
    sql`SELECT ${HOST_COLUMNS} FROM hosts h
        WHERE h.account_id = ${principal.accountId} AND h.id > ${filter.afterId} AND ${hostVisibleSql(principal)}
          ${prefix === null ? empty : sql`AND (lower(h.name) LIKE ${prefix} OR lower(h.email) LIKE ${prefix})`}
          ${
            filter.siteId === undefined
              ? empty
              : sql`AND (h.all_sites OR EXISTS (SELECT 1 FROM host_sites hs
                  WHERE hs.account_id = h.account_id AND hs.host_id = h.id AND hs.site_id = ${filter.siteId}))`
          }
        ORDER BY h.id LIMIT ${filter.limit + 1}`,
  );
}

/** The hosts of one site as a kiosk holds them: id and name only, by name. */
export async function siteHosts(
  db: Executor,
  key: { accountId: number; siteId: number },
): Promise<Array<{ hostId: number; name: string }>> {
  return queryRows<{ hostId: number; name: string }>(
    db,
    sql`SELECT h.id AS "hostId", h.name FROM hosts h
        WHERE h.account_id = ${key.accountId} AND (h.all_sites OR EXISTS (
          SELECT 1 FROM host_sites hs WHERE hs.account_id = h.account_id AND hs.host_id = h.id AND hs.site_id = ${key.siteId}))
        ORDER BY lower(h.name), h.id`,
  );
}

/** The host `hostId` if it is one of the site's (a check-in may name only those), with its name now. */
export async function hostOfSite(
  db: Executor,
  key: { accountId: number; siteId: number; hostId: number },
): Promise<{ id: number; name: string } | undefined> {
  return queryOne<{ id: number; name: string }>(
    db,
    sql`SELECT h.id, h.name FROM hosts h
        WHERE h.account_id = ${key.accountId} AND h.id = ${key.hostId} AND (h.all_sites OR EXISTS (
          SELECT 1 FROM host_sites hs WHERE hs.account_id = h.account_id AND hs.host_id = h.id AND hs.site_id = ${key.siteId}))`,
    { prepare: true },
  );
}
