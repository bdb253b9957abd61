import { type ScopeNeed, scopeNeedText } from '../../../shared/src/schemas/admin';
import type { Sql } from '../db/sql';
import { ProblemError } from '../errors/problem';
import type { Principal, SiteAccess } from './principal';

/** Who is calling, the site of the path, what was looked up alongside; or, for a known caller, why it may not. */
export interface Authentication<Alongside = undefined> {
  principal: Principal;
  site?: SiteAccess;
  /** What `lookup` found, read in the same round trip as the caller. */
  alongside?: Alongside;
  /**
   * 403 for a missing scope, 404 for a site the token cannot view: returned, not thrown, because the token
   * is known and the request still counts against its rate limit and carries its RateLimit headers.
   */
  refusal?: ProblemError;
  /**
   * For a token with the path's site whose lastUsedAt needs no update for a while: the versions of the
   * rows it was read from, so that its next writes may check it within their own statement
   * (auth/rememberedCallers.ts).
   */
  stamp?: CallerStamp;
}

/** What a remembered token's write checks: its row and its site's row still at these versions, until `until`. */
export interface CallerStamp {
  tokenHash: Buffer;
  tokenVersion: string;
  siteVersion: string;
  until: Date;
}

export interface AuthenticationInput {
  authorization: string;
  /** The `gh_session` cookie's value, if one came. */
  sessionId?: string;
  /** Only a session will do (the session's own endpoints). */
  sessionOnly?: boolean;
  scope?: ScopeNeed;
  siteId?: number;
  now: Date;
}

/**
 * Something of the caller's account to read in the caller's own statement, so it costs no round trip of
 * its own (the Idempotency-Key's stored outcome: idempotency/lookup.ts). Its columns must be named apart
 * from the caller's.
 */
export interface AccountLookup<T> {
  columns: Sql;
  /** A LEFT JOIN on the caller's account, whose id is the SQL `accountId`. */
  join: (accountId: Sql) => Sql;
  read: (row: Record<string, unknown>) => T;
}

/** A refusal for a caller that is known: 403 for a missing scope. */
export const missingScope = (scope: ScopeNeed, who: string) =>
  new ProblemError('INSUFFICIENT_SCOPE', `This ${who} lacks the ${scopeNeedText(scope)} scope.`);
