import type { Source } from '../../../shared/src/schemas/common';
import type { CheckinConfigUpdate } from '../../../shared/src/schemas/sites';
import type { Scope } from '../../../shared/src/schemas/admin';
import type { Actor } from '../../../shared/src/schemas/staff';

/**
 * Who is calling: one API token, or one staff user signed in with a session (docs/api.md, Staff
 * accounts). Both belong to one account, have scopes and a site list, and act under a name.
 */
export interface Principal {
  actor: Actor;
  accountId: number;
  scopes: ReadonlySet<Scope>;
  /** Where this principal's writes come from unless they say: a token's channel; MANUAL for staff. */
  source: Source;
  allSites: boolean;
  /** The token, for a token principal; null for a user. */
  tokenId: number | null;
  /** The staff user, for a session principal; null for a token. */
  userId: number | null;
  /** Present when the caller came with a session cookie (the SHA-256 of its id). */
  session?: { idHash: Buffer };
}

/**
 * One number per principal for per-caller counters (rate limits, idempotency fingerprints): a token's id,
 * or minus a user's id (ids are positive, so the two never meet).
 */
export const principalKey = (principal: Principal): number => principal.tokenId ?? -(principal.userId ?? 0);

/** A site the caller may view, with what site-scoped routes need of it (read in the same query as the caller). */
export interface SiteAccess {
  siteId: number;
  name: string;
  timezone: string;
  checkinConfig: CheckinConfigUpdate;
  configVersion: number;
  /** Set: the site refuses new check-ins (docs/api.md, Sites). */
  archivedAt: Date | null;
}
