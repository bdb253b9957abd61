import type { KioskMode } from '../../../shared/src/schemas/kiosks';
import type { Principal } from '../auth/principal';
import { siteVisibleSql } from '../policies/siteVisibility';
import { type Executor, queryOne } from '../db/query';
import { type Sql, empty, sql } from '../db/sql';

export interface KioskRow {
  account_id: number;
  id: number;
  site_id: number;
  mode: KioskMode;
  name: string;
  token_id: number;
  created_at: Date;
  paired_at: Date | null;
  last_seen_at: Date | null;
  pending: number | null;
  attention: number | null;
  app_version: string | null;
}

export const KIOSK_COLUMNS = sql`k.account_id, k.id, k.site_id, k.mode, k.name, k.token_id, k.created_at, k.paired_at,
  k.last_seen_at, k.pending, k.attention, k.app_version`;

/** The kiosk's site is one `principal` may view (a manager manages only their own sites' kiosks). */
export const kioskVisibleSql = (principal: Principal): Sql => siteVisibleSql(principal, sql`k.site_id`);

/** A live kiosk of the caller's account on a site it can view; `lock` to change it. */
export async function findKiosk(
  db: Executor,
  principal: Principal,
  kioskId: number,
  lock = false,
): Promise<KioskRow | undefined> {
  return queryOne<KioskRow>(
    db,
    sql`SELECT ${KIOSK_COLUMNS} FROM kiosks k
        WHERE k.account_id = ${principal.accountId} AND k.id = ${kioskId} AND k.revoked_at IS NULL AND ${kioskVisibleSql(principal)}
        ${lock ? sql`FOR UPDATE OF k` : empty}`,
  );
}
