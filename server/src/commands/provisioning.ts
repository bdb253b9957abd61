import { type Scope, scopesByDefault } from '../../../shared/src/schemas/admin';
import type { Channel } from '../../../shared/src/schemas/common';
import { defaultCheckinConfig } from '../../../shared/src/schemas/sites';
import { generateToken, hashToken } from '../auth/tokenFormat';
import { type Executor, queryOne, queryRows } from '../db/query';
import { notFound, validationFailed } from '../errors/problem';

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

export async function createAccount(db: Executor, name: string) {
  const row = await queryOne<{ id: number; name: string }>(db, 'INSERT INTO accounts (name) VALUES ($1) RETURNING id, name', [name]);
  if (!row) throw new Error('account insert returned nothing');
  return { accountId: row.id, name: row.name };
}

/** A site starts with the default check-in configuration of CONTRACT §5. */
export async function createSite(db: Executor, input: { accountId: number; name: string; timezone?: string }) {
  const row = await queryOne<{ id: number; account_id: number; name: string; timezone: string }>(
    db,
    `INSERT INTO sites (account_id, name, timezone, checkin_config)
     SELECT id, $2, $3, $4 FROM accounts WHERE id = $1 RETURNING id, account_id, name, timezone`,
    [input.accountId, input.name, input.timezone ?? 'UTC', JSON.stringify(defaultCheckinConfig)],
  );
  if (!row) throw notFound(`Account ${input.accountId} does not exist.`);
  return { siteId: row.id, accountId: row.account_id, name: row.name, timezone: row.timezone };
}

async function checkSitesBelong(db: Executor, accountId: number, siteIds: number[]): Promise<void> {
  const rows = await queryRows<{ id: number }>(db, 'SELECT id FROM sites WHERE account_id = $1 AND id = ANY($2::bigint[])', [
    accountId,
    siteIds,
  ]);
  if (rows.length !== new Set(siteIds).size) {
    throw validationFailed([{ path: 'siteIds', message: 'Every site must belong to the token’s account' }]);
  }
}

async function setTokenSites(db: Executor, accountId: number, tokenId: number, siteIds: number[]): Promise<void> {
  await queryOne(
    db,
    // Keep the rows that stay: a DELETE and an INSERT in one statement share a snapshot, so a re-inserted
    // site would hit ON CONFLICT against the row being deleted and vanish.
    `WITH cleared AS (DELETE FROM token_sites WHERE account_id = $1 AND token_id = $2 AND site_id <> ALL($3::int[]))
     INSERT INTO token_sites (account_id, token_id, site_id) SELECT $1, $2, unnest($3::int[]) ON CONFLICT DO NOTHING`,
    [accountId, tokenId, [...new Set(siteIds)]],
  );
}

/** One token as the management API shows it (never its secret or hash). */
export async function readToken(db: Executor, tokenId: number): Promise<TokenRecord | undefined> {
  const row = await queryOne<{
    id: number; account_id: number; name: string; all_sites: boolean; scopes: Scope[]; channel: Channel;
    expires_at: Date | null; last_used_at: Date | null; created_at: Date; site_ids: number[];
  }>(
    db,
    `SELECT t.*, COALESCE(ARRAY(SELECT site_id FROM token_sites ts WHERE ts.account_id = t.account_id
                                  AND ts.token_id = t.id ORDER BY site_id), '{}') AS site_ids
     FROM api_tokens t WHERE t.id = $1 AND t.revoked_at IS NULL`,
    [tokenId],
  );
  if (!row) return undefined;
  return {
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
  };
}

/** Issues a token; the plaintext is returned here and only here (only its SHA-256 is stored). */
export async function createToken(
  db: Executor,
  input: { accountId: number; name: string; siteIds?: number[]; allSites?: boolean; scopes?: Scope[]; channel?: Channel; expiresAt?: string },
): Promise<TokenRecord & { token: string }> {
  const account = await queryOne(db, 'SELECT id FROM accounts WHERE id = $1', [input.accountId]);
  if (!account) throw notFound(`Account ${input.accountId} does not exist.`);
  const siteIds = input.allSites ? [] : (input.siteIds ?? []);
  const channel = input.channel ?? 'API';
  await checkSitesBelong(db, input.accountId, siteIds);
  const token = generateToken();
  const row = await queryOne<{ id: number }>(
    db,
    `INSERT INTO api_tokens (account_id, name, token_hash, all_sites, scopes, channel, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [input.accountId, input.name, hashToken(token), input.allSites ?? false, [...new Set(input.scopes ?? scopesByDefault(channel))],
      channel, input.expiresAt ?? null],
  );
  if (!row) throw new Error('token insert returned nothing');
  await setTokenSites(db, input.accountId, row.id, siteIds);
  const record = await readToken(db, row.id);
  if (!record) throw new Error('token vanished');
  return { ...record, token };
}

/** Changes a token's sites and scopes; takes effect on its very next request (access is never cached). */
export async function updateToken(
  db: Executor,
  tokenId: number,
  input: { siteIds?: number[]; allSites?: boolean; scopes?: Scope[] },
): Promise<TokenRecord> {
  const current = await readToken(db, tokenId);
  if (!current) throw notFound(`Token ${tokenId} does not exist.`);
  const allSites = input.siteIds !== undefined ? false : (input.allSites ?? current.allSites);
  if (input.siteIds) await checkSitesBelong(db, current.accountId, input.siteIds);
  await queryOne(db, 'UPDATE api_tokens SET all_sites = $3, scopes = $4 WHERE account_id = $1 AND id = $2', [
    current.accountId, tokenId, allSites, [...new Set(input.scopes ?? current.scopes)],
  ]);
  if (input.siteIds !== undefined || allSites) {
    await setTokenSites(db, current.accountId, tokenId, allSites ? [] : (input.siteIds ?? []));
  }
  const updated = await readToken(db, tokenId);
  if (!updated) throw new Error('token vanished');
  return updated;
}

/** Revokes at once: the next request with it is a 401. */
export async function revokeToken(db: Executor, tokenId: number, now: Date): Promise<void> {
  const row = await queryOne(db, 'UPDATE api_tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id', [
    tokenId,
    now,
  ]);
  if (!row) throw notFound(`Token ${tokenId} does not exist.`);
}
