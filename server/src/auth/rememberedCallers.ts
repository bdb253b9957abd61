import { type Sql, sql } from '../db/sql';
import { siteVisibleSql } from '../policies/siteVisibility';
import type { Authentication, CallerStamp } from './authentication';
import type { Principal, SiteAccess } from './principal';
import { hashToken } from './tokenFormat';

/** A token and one of its sites as a full authentication found them a moment ago. */
export interface RememberedCaller {
  principal: Principal;
  site: SiteAccess;
  stamp: CallerStamp;
}

/** How many (token, site) pairs a process remembers; past it, the oldest is forgotten. */
const CAPACITY = 10_000;

const keyOf = (tokenHash: Buffer, siteId: number) => `${tokenHash.toString('base64')} ${siteId}`;

/**
 * Tokens with a site, as the last full authentication of each found them, so the next write of the same
 * token to the same site can go out at once as one statement that checks them itself (stillAsRemembered):
 * nothing here is trusted, it is what a write is planned on. An entry lasts until the token's lastUsedAt is
 * due again (a minute at most) or the token expires; the full authentication then runs, as it does on a
 * miss, and writes lastUsedAt.
 */
export class RememberedCallers {
  private readonly entries = new Map<string, RememberedCaller>();

  remember(authentication: Authentication<unknown>): void {
    const { principal, site, stamp, refusal } = authentication;
    if (!site || !stamp || refusal || principal.tokenId === null) return;
    const key = keyOf(stamp.tokenHash, site.siteId);
    this.entries.delete(key);
    this.entries.set(key, { principal, site, stamp });
    if (this.entries.size > CAPACITY) this.forgetOldest();
  }

  /** The token's entry for the site, while it lasts. */
  recall(token: string, siteId: number, now: Date): RememberedCaller | undefined {
    const key = keyOf(hashToken(token), siteId);
    const entry = this.entries.get(key);
    if (entry && entry.stamp.until.getTime() > now.getTime()) return entry;
    if (entry) this.entries.delete(key);
    return undefined;
  }

  forget(caller: RememberedCaller): void {
    this.entries.delete(keyOf(caller.stamp.tokenHash, caller.site.siteId));
  }

  private forgetOldest(): void {
    const oldest = this.entries.keys().next();
    if (!oldest.done) this.entries.delete(oldest.value);
  }
}

/**
 * SQL true while the token's row and its site's row are the versions it was remembered at (any change, a
 * revocation, a new scope, an archived site or a new form, makes a new version) and the token may still
 * view the site: its site list is read now, as every request's is (docs/api.md, Authentication).
 */
export function stillAsRemembered(caller: RememberedCaller): Sql {
  const { stamp, site } = caller;
  return sql`EXISTS (
    SELECT 1 FROM api_tokens t JOIN sites s ON s.account_id = t.account_id AND s.id = ${site.siteId}::integer
    WHERE t.token_hash = ${stamp.tokenHash} AND t.xmin = ${stamp.tokenVersion}::text::xid
      AND s.xmin = ${stamp.siteVersion}::text::xid
      AND ${siteVisibleSql({ accountId: sql`t.account_id`, tokenId: sql`t.id`, allSites: sql`t.all_sites` }, sql`s.id`)})`;
}
