import { type Scope, type ScopeNeed, grantsScope, scopeNeedText } from '../../../shared/src/schemas/admin';
import type { Channel } from '../../../shared/src/schemas/common';
import { type Executor, queryOne, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { ProblemError, notFound, problem } from '../errors/problem';
import type { StoredOutcome } from '../idempotency/store';
import type { Principal, SiteAccess } from './principal';
import { siteVisibleSql } from '../policies/siteVisibility';
import { type SiteAndKeyColumns, siteOfRow, storedOf } from './resolvedSite';
import { authenticateSession } from './sessionAuth';
import { hashToken, isWellFormedToken } from './tokenFormat';

interface TokenRow extends SiteAndKeyColumns {
  account_id: number;
  id: number;
  name: string;
  scopes: Scope[];
  channel: Channel;
  all_sites: boolean;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

/**
 * One round trip: the token, the requested site if this token may view it (never cached: interface §5),
 * and the stored outcome of the Idempotency-Key if one was sent, so a replay costs no extra query.
 */
const tokenAndSite = (input: {
  tokenHash: Buffer;
  siteId: number | null;
  key: string | null;
  since: Date | null;
}) => sql`
  SELECT t.account_id, t.id, t.name, t.scopes, t.channel, t.all_sites, t.expires_at, t.revoked_at, t.last_used_at,
         s.id AS site_id, s.name AS site_name, s.timezone, s.checkin_config, s.config_version, s.archived_at AS site_archived_at,
         k.fingerprint AS stored_fingerprint, k.status_code AS stored_status, k.body AS stored_body,
         k.headers AS stored_headers
  FROM api_tokens t
  LEFT JOIN sites s ON s.account_id = t.account_id AND s.id = ${input.siteId}::integer
    AND ${siteVisibleSql({ accountId: sql`t.account_id`, tokenId: sql`t.id`, allSites: sql`t.all_sites` }, sql`s.id`)}
  LEFT JOIN idempotency_keys k ON k.account_id = t.account_id AND k.key = ${input.key}::text AND k.created_at >= ${input.since}::timestamptz
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

/** Who is calling, the site of the path, the key's stored outcome; or, for a known token, why it may not. */
export interface Authentication {
  principal: Principal;
  site?: SiteAccess;
  stored?: StoredOutcome;
  /**
   * 403 for a missing scope, 404 for a site the token cannot view: returned, not thrown, because the token
   * is known and the request still counts against its rate limit and carries its RateLimit headers.
   */
  refusal?: ProblemError;
}

/**
 * Resolves the caller and, for site-scoped paths, the site. Throws 401 for a missing, unknown, expired or
 * revoked token; a missing scope (403) or a site the token cannot view (404, the same as an unknown one)
 * comes back as `refusal`.
 */
export interface AuthenticationInput {
  authorization: string;
  /** The `gh_session` cookie's value, if one came. */
  sessionId?: string;
  /** Only a session will do (the session's own endpoints). */
  sessionOnly?: boolean;
  scope?: ScopeNeed;
  siteId?: number;
  now: Date;
  /** An Idempotency-Key to look up, with the start of its retention window. */
  idempotency?: { key: string; since: Date };
}

/** The caller: a bearer token if one was sent, else the session of the cookie (docs/api.md, Staff accounts). */
export async function authenticate(db: Executor, input: AuthenticationInput): Promise<Authentication> {
  const token = input.sessionOnly ? undefined : bearerOf(input.authorization);
  if (token === undefined) {
    if (input.sessionId !== undefined) return authenticateSession(db, { ...input, sessionId: input.sessionId });
    throw unauthenticated(
      input.sessionOnly ? 'Sign in first (no valid session).' : 'Send Authorization: Bearer <token>, or sign in.',
      false,
    );
  }
  return authenticateToken(db, { ...input, token });
}

/** A refusal for a caller that is known: 403 for a missing scope. */
export const missingScope = (scope: ScopeNeed, who: string) =>
  new ProblemError('INSUFFICIENT_SCOPE', `This ${who} lacks the ${scopeNeedText(scope)} scope.`);

async function authenticateToken(
  db: Executor,
  input: AuthenticationInput & { token: string },
): Promise<Authentication> {
  const { token } = input;
  if (!isWellFormedToken(token)) throw unauthenticated('The token is not valid.', true);
  const statement = tokenAndSite({
    tokenHash: hashToken(token),
    siteId: input.siteId ?? null,
    key: input.idempotency?.key ?? null,
    since: input.idempotency?.since ?? null,
  });
  const row = await queryOne<TokenRow>(db, statement, { prepare: true });
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
  if (!row.last_used_at || input.now.getTime() - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
    // Off the request path and at most once a minute per token: lastUsedAt is coarse by design.
    queryRows(
      db,
      sql`UPDATE api_tokens SET last_used_at = ${input.now} WHERE account_id = ${row.account_id} AND id = ${row.id}`,
    ).catch(() => undefined);
  }
  const stored = storedOf(row);
  if (input.siteId === undefined) return { principal, stored };
  const site = siteOfRow(row);
  if (!site)
    return { principal, refusal: notFound(`Site ${input.siteId} does not exist or is not visible to this token.`) };
  return { principal, stored, site };
}
