import type { Scope } from '../../../shared/src/schemas/admin';
import type { Channel } from '../../../shared/src/schemas/common';
import { type Sql, empty, sql } from '../db/sql';

/** A token as the API shows it (never its secret or hash). */
export interface TokenRecord {
  tokenId: number;
  accountId: number;
  name: string;
  siteIds: number[];
  allSites: boolean;
  scopes: Scope[];
  channel: Channel;
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

export interface TokenRow {
  id: number;
  account_id: number;
  name: string;
  all_sites: boolean;
  scopes: Scope[];
  channel: Channel;
  expires_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
  site_ids: number[];
}

/** Live tokens (not revoked) with their site lists, matching `where` (a condition on `t`), newest first. */
export const tokenSelect = (where: Sql, limit?: number) => sql`
  SELECT t.id, t.account_id, t.name, t.all_sites, t.scopes, t.channel, t.expires_at, t.last_used_at, t.created_at,
         COALESCE(ARRAY(SELECT site_id FROM token_sites ts WHERE ts.account_id = t.account_id
                        AND ts.token_id = t.id ORDER BY site_id), '{}') AS site_ids
  FROM api_tokens t WHERE t.revoked_at IS NULL AND ${where}
  ORDER BY t.id DESC ${limit === undefined ? empty : sql`LIMIT ${limit}`}`;

export const toTokenRecord = (row: TokenRow): TokenRecord => ({
  tokenId: row.id,
  accountId: row.account_id,
  name: row.name,
  siteIds: row.site_ids,
  allSites: row.all_sites,
  scopes: row.scopes,
  channel: row.channel,
  expiresAt: row.expires_at?.toISOString() ?? null,
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
});
