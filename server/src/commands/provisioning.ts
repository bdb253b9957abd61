import type { Scope } from '../../../shared/src/schemas/admin';
import type { Channel } from '../../../shared/src/schemas/common';
import { DEFAULT_LANGUAGE, type Language } from '../../../shared/src/messages/languages';
import type { KioskMode } from '../../../shared/src/schemas/kiosks';
import { defaultCheckinConfig } from '../../../shared/src/schemas/sites';
import { generateToken, hashToken } from '../auth/tokenFormat';
import { type Executor, queryOne } from '../db/query';
import { notFound } from '../errors/problem';
import { checkSitesBelong } from '../policies/accountSites';
import { tokenScopes } from '../policies/kioskTokens';
import { sql } from '../db/sql';
import { type TokenRecord, type TokenRow, tokenSelect, toTokenRecord } from '../queries/tokenRows';

export type { TokenRecord } from '../queries/tokenRows';

export async function createAccount(db: Executor, name: string) {
  const row = await queryOne<{ id: number; name: string }>(
    db,
    sql`INSERT INTO accounts (name) VALUES (${name}) RETURNING id, name`,
  );
  if (!row) throw new Error('account insert returned nothing');
  return { accountId: row.id, name: row.name };
}

/** A site starts with the default check-in configuration (docs/api.md, Site configuration). */
export async function createSite(
  db: Executor,
  input: { accountId: number; name: string; timezone?: string; defaultLanguage?: Language },
) {
  const row = await queryOne<{ id: number; account_id: number; name: string; timezone: string; visit_code: string }>(
    db,
    sql`INSERT INTO sites (account_id, name, timezone, checkin_config, default_language)
     SELECT id, ${input.name}, ${input.timezone ?? 'UTC'}, ${JSON.stringify(defaultCheckinConfig)}, ${input.defaultLanguage ?? DEFAULT_LANGUAGE}
     FROM accounts WHERE id = ${input.accountId}
     RETURNING id, account_id, name, timezone, visit_code`,
  );
  if (!row) throw notFound(`Account ${input.accountId} does not exist.`);
  return {
    siteId: row.id,
    accountId: row.account_id,
    name: row.name,
    timezone: row.timezone,
    visitCode: row.visit_code,
  };
}

async function setTokenSites(db: Executor, accountId: number, tokenId: number, siteIds: number[]): Promise<void> {
  await queryOne(
    db,
    // Keep the rows that stay: a DELETE and an INSERT in one statement share a snapshot, so a re-inserted
    // site would hit ON CONFLICT against the row being deleted and vanish.
    sql`WITH cleared AS (DELETE FROM token_sites
                         WHERE account_id = ${accountId} AND token_id = ${tokenId} AND site_id <> ALL(${[...new Set(siteIds)]}::int[]))
        INSERT INTO token_sites (account_id, token_id, site_id)
        SELECT ${accountId}, ${tokenId}, unnest(${[...new Set(siteIds)]}::int[]) ON CONFLICT DO NOTHING`,
  );
}

/** One token as the management API shows it (never its secret or hash). */
export async function readToken(db: Executor, tokenId: number): Promise<TokenRecord | undefined> {
  const row = await queryOne<TokenRow>(db, tokenSelect(sql`t.id = ${tokenId}`));
  return row ? toTokenRecord(row) : undefined;
}

/** Issues a token; the plaintext is returned here and only here (only its SHA-256 is stored). */
export async function createToken(
  db: Executor,
  input: {
    accountId: number;
    name: string;
    siteIds?: number[];
    allSites?: boolean;
    scopes?: Scope[];
    channel?: Channel;
    /** A KIOSK token's mode: its scopes are the mode's (policies/kioskTokens.ts). */
    mode?: KioskMode;
    expiresAt?: string;
  },
): Promise<TokenRecord & { token: string }> {
  const account = await queryOne(db, sql`SELECT id FROM accounts WHERE id = ${input.accountId}`);
  if (!account) throw notFound(`Account ${input.accountId} does not exist.`);
  const siteIds = input.allSites ? [] : (input.siteIds ?? []);
  const channel = input.channel ?? 'API';
  const scopes = tokenScopes({
    channel,
    mode: input.mode,
    scopes: input.scopes,
    siteIds,
    allSites: input.allSites ?? false,
  });
  await checkSitesBelong(db, { accountId: input.accountId, siteIds, owner: 'token' });
  const token = generateToken();
  const row = await queryOne<{ id: number }>(
    db,
    sql`INSERT INTO api_tokens (account_id, name, token_hash, all_sites, scopes, channel, expires_at)
        VALUES (${input.accountId}, ${input.name}, ${hashToken(token)}, ${input.allSites ?? false},
                ${[...new Set(scopes)]}, ${channel}, ${input.expiresAt ?? null}) RETURNING id`,
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
  // A kiosk's token keeps its mode's scope and its one site; an API token never gets a kiosk's scope.
  const kioskMode = current.channel === 'KIOSK' ? modeOfScopes(current.scopes) : undefined;
  tokenScopes({
    channel: current.channel,
    mode: kioskMode,
    scopes: input.scopes ?? (current.channel === 'KIOSK' ? undefined : current.scopes),
    siteIds: input.siteIds ?? current.siteIds,
    allSites,
  });
  if (input.siteIds)
    await checkSitesBelong(db, { accountId: current.accountId, siteIds: input.siteIds, owner: 'token' });
  await queryOne(
    db,
    sql`UPDATE api_tokens SET all_sites = ${allSites}, scopes = ${[...new Set(input.scopes ?? current.scopes)]} WHERE account_id = ${current.accountId} AND id = ${tokenId}`,
  );
  if (input.siteIds !== undefined || allSites) {
    await setTokenSites(db, current.accountId, tokenId, allSites ? [] : (input.siteIds ?? []));
  }
  const updated = await readToken(db, tokenId);
  if (!updated) throw new Error('token vanished');
  return updated;
}

/** The mode a kiosk token's scopes say (its one kiosk scope). */
const modeOfScopes = (scopes: Scope[]): KioskMode | undefined =>
  scopes.includes('kiosk:gate') ? 'gate' : scopes.includes('kiosk:visitor') ? 'visitor' : undefined;

/** Revokes at once: the next request with it is a 401. Answers the token's account. */
export async function revokeToken(db: Executor, tokenId: number, now: Date): Promise<{ accountId: number }> {
  const row = await queryOne<{ id: number; account_id: number }>(
    db,
    sql`UPDATE api_tokens SET revoked_at = ${now} WHERE id = ${tokenId} AND revoked_at IS NULL RETURNING id, account_id`,
  );
  if (!row) throw notFound(`Token ${tokenId} does not exist.`);
  // A kiosk's token takes its kiosk with it.
  await queryOne(
    db,
    sql`UPDATE kiosks SET revoked_at = ${now}, pairing_code_hash = NULL, pairing_expires_at = NULL
        WHERE account_id = ${row.account_id} AND token_id = ${tokenId} AND revoked_at IS NULL`,
  );
  return { accountId: row.account_id };
}
