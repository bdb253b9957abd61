import { type Scope, defaultScopes } from '../../../shared/src/schemas/admin';
import type { CreateApiTokenRequest } from '../../../shared/src/schemas/tokens';
import type { Principal } from '../auth/principal';
import { type Executor, queryOne, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { type FieldError, notFound, validationFailed } from '../errors/problem';
import { siteVisibleSql } from '../policies/siteVisibility';
import { type TokenRecord, createToken } from './provisioning';

/** What the caller asks for that it does not have itself: a token never holds more than its maker. */
async function beyondCaller(
  db: Executor,
  principal: Principal,
  request: CreateApiTokenRequest,
  scopes: Scope[],
): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  const missing = scopes.filter((scope) => !principal.scopes.has(scope));
  if (missing.length > 0)
    errors.push({ path: 'scopes', message: `You cannot grant scopes you do not have: ${missing.join(', ')}` });
  if (request.allSites && !principal.allSites)
    errors.push({ path: 'allSites', message: 'Only a caller with every site can make an all-sites token' });
  const wanted = [...new Set(request.siteIds ?? [])];
  if (wanted.length > 0) {
    const rows = await queryRows<{ id: number }>(
      db,
      sql`SELECT s.id FROM sites s WHERE s.account_id = ${principal.accountId} AND s.id = ANY(${wanted}::bigint[])
            AND ${siteVisibleSql(principal, sql`s.id`)}`,
    );
    const found = new Set(rows.map((row) => row.id));
    const unknown = wanted.filter((id) => !found.has(id));
    if (unknown.length > 0)
      errors.push({ path: 'siteIds', message: `Sites you cannot view (or that do not exist): ${unknown.join(', ')}` });
  }
  return errors;
}

/**
 * Issues an `API` token with no more than the caller has (least privilege): without `scopes`, the API
 * defaults the caller holds. The plaintext is in the result only (docs/api.md, API tokens).
 */
export async function createApiToken(
  db: Executor,
  input: { principal: Principal; request: CreateApiTokenRequest; now: Date },
): Promise<TokenRecord & { token: string }> {
  const { principal, request } = input;
  const errors: FieldError[] = [];
  if (request.expiresAt !== undefined && new Date(request.expiresAt) <= input.now)
    errors.push({ path: 'expiresAt', message: 'Must be in the future' });
  const scopes = request.scopes ?? defaultScopes.filter((scope) => principal.scopes.has(scope));
  errors.push(...(await beyondCaller(db, principal, request, scopes)));
  if (errors.length > 0) throw validationFailed(errors);
  return createToken(db, {
    accountId: principal.accountId,
    name: request.name,
    siteIds: request.siteIds,
    allSites: request.allSites,
    scopes,
    channel: 'API',
    expiresAt: request.expiresAt,
  });
}

/** Revokes one of the account's live tokens at once; a kiosk's token takes its kiosk with it. */
export async function revokeAccountToken(
  db: Executor,
  input: { accountId: number; tokenId: number; now: Date },
): Promise<void> {
  const row = await queryOne<{ id: number }>(
    db,
    sql`UPDATE api_tokens SET revoked_at = ${input.now}
        WHERE account_id = ${input.accountId} AND id = ${input.tokenId} AND revoked_at IS NULL RETURNING id`,
  );
  if (!row) throw notFound(`Token ${input.tokenId} does not exist.`);
  await queryRows(
    db,
    sql`UPDATE kiosks SET revoked_at = ${input.now}, pairing_code_hash = NULL, pairing_expires_at = NULL
        WHERE account_id = ${input.accountId} AND token_id = ${input.tokenId} AND revoked_at IS NULL`,
  );
}
