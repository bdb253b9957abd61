import { type Scope, grantsScope } from '../../../shared/src/schemas/admin';
import type { Channel } from '../../../shared/src/schemas/common';
import { type Executor, queryOne, queryRows } from '../db/query';
import { empty, sql } from '../db/sql';
import { notFound, problem } from '../errors/problem';
import type { Principal } from './principal';
import { siteVisibleSql } from '../policies/siteVisibility';
import {
  type AccountLookup,
  type Authentication,
  type AuthenticationInput,
  type CallerStamp,
  missingScope,
} from './authentication';
import { type SiteColumns, siteOfRow } from './resolvedSite';
import { authenticateSession } from './sessionAuth';
import { hashToken, isWellFormedToken } from './tokenFormat';

interface TokenRow extends SiteColumns {
  account_id: number;
  id: number;
  name: string;
  scopes: Scope[];
  channel: Channel;
  all_sites: boolean;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  token_version: string;
  site_version: string | null;
}

/**
 * One round trip: the token, the requested site if this token may view it (never cached: interface §5),
 * and whatever `alongside` reads of the account (the Idempotency-Key's stored outcome), so a replay costs no
 * extra query.
 */
const tokenAndSite = (input: { tokenHash: Buffer; siteId: number | null; alongside?: AccountLookup<unknown> }) => sql`
  SELECT t.account_id, t.id, t.name, t.scopes, t.channel, t.all_sites, t.expires_at, t.revoked_at, t.last_used_at,
         t.xmin::text AS token_version, s.xmin::text AS site_version, s.id AS site_id, s.name AS site_name, s.timezone, s.checkin_config, s.config_version, s.archived_at AS site_archived_at${
           input.alongside ? sql`, ${input.alongside.columns}` : empty
         }
  FROM api_tokens t
  LEFT JOIN sites s ON s.account_id = t.account_id AND s.id = ${input.siteId}::integer
    AND ${siteVisibleSql({ accountId: sql`t.account_id`, tokenId: sql`t.id`, allSites: sql`t.all_sites` }, sql`s.id`)}
  ${input.alongside ? input.alongside.join(sql`t.account_id`) : empty}
  WHERE t.token_hash = ${input.tokenHash}`;

const LAST_USED_RESOLUTION_MS = 60_000;

export const unauthenticated = (detail: string, sent: boolean) =>
  problem('UNAUTHENTICATED', detail, {
    headers: { 'WWW-Authenticate': sent ? 'Bearer error="invalid_token"' : 'Bearer' },
  });

/** The bearer token of an Authorization header, or undefined. */
export function bearerOf(header: string): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * The caller: a bearer token if one was sent, else the session of the cookie (docs/api.md, Staff accounts),
 * and, for site-scoped paths, the site. Throws 401 for a missing, unknown, expired or revoked token; a
 * missing scope (403) or a site the caller cannot view (404, the same as an unknown one) comes back as
 * `refusal`.
 */
export async function authenticate<Alongside = undefined>(
  db: Executor,
  input: AuthenticationInput,
  alongside?: AccountLookup<Alongside>,
): Promise<Authentication<Alongside>> {
  const token = input.sessionOnly ? undefined : bearerOf(input.authorization);
  if (token === undefined) {
    if (input.sessionId !== undefined)
      return authenticateSession(db, { ...input, sessionId: input.sessionId }, alongside);
    throw unauthenticated(
      input.sessionOnly ? 'Sign in first (no valid session).' : 'Send Authorization: Bearer <token>, or sign in.',
      false,
    );
  }
  return authenticateToken(db, { ...input, token }, alongside);
}

async function authenticateToken<Alongside>(
  db: Executor,
  input: AuthenticationInput & { token: string },
  alongside?: AccountLookup<Alongside>,
): Promise<Authentication<Alongside>> {
  const { token } = input;
  if (!isWellFormedToken(token)) throw unauthenticated('The token is not valid.', true);
  const tokenHash = hashToken(token);
  const statement = tokenAndSite({ tokenHash, siteId: input.siteId ?? null, alongside });
  const row = await queryOne<TokenRow & Record<string, unknown>>(db, statement, { prepare: true });
  if (!row || row.revoked_at) throw unauthenticated('The token is not valid.', true);
  if (row.expires_at && row.expires_at.getTime() <= input.now.getTime()) {
    throw unauthenticated('The token has expired.', true);
  }
  const principal: Principal = {
    actor: { type: 'token', id: row.id, name: row.name },
    accountId: row.account_id,
    scopes: new Set(row.scopes),
    source: row.channel,
    allSites: row.all_sites,
    tokenId: row.id,
    userId: null,
  };
  if (input.scope && !grantsScope(principal.scopes, input.scope))
    return { principal, refusal: missingScope(input.scope, 'token') };
  const usedLately =
    row.last_used_at !== null && input.now.getTime() - row.last_used_at.getTime() <= LAST_USED_RESOLUTION_MS;
  if (!usedLately) {
    // Off the request path and at most once a minute per token: lastUsedAt is coarse by design.
    queryRows(
      db,
      sql`UPDATE api_tokens SET last_used_at = ${input.now} WHERE account_id = ${row.account_id} AND id = ${row.id}`,
    ).catch(() => undefined);
  }
  const found = alongside?.read(row);
  if (input.siteId === undefined) return { principal, alongside: found };
  const site = siteOfRow(row);
  if (!site)
    return { principal, refusal: notFound(`Site ${input.siteId} does not exist or is not visible to this token.`) };
  const stamp = usedLately ? stampOf(row, tokenHash) : undefined;
  return { principal, alongside: found, site, stamp };
}

/** The stamp of a token whose lastUsedAt is fresh: good until it is due again, or the token expires. */
function stampOf(row: TokenRow, tokenHash: Buffer): CallerStamp | undefined {
  if (row.last_used_at === null || row.site_version === null) return undefined;
  const due = row.last_used_at.getTime() + LAST_USED_RESOLUTION_MS;
  const until = row.expires_at ? Math.min(due, row.expires_at.getTime()) : due;
  return { tokenHash, tokenVersion: row.token_version, siteVersion: row.site_version, until: new Date(until) };
}
