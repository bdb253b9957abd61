import type { Principal } from '../auth/principal';
import type { Executor } from '../db/query';
import { type Sql, sql } from '../db/sql';
import { validationFailed } from '../errors/problem';
import { type SiteViewer, siteVisibleSql } from './siteVisibility';
import { viewableSites } from './viewableSites';

/**
 * SQL: the subscription `s` is visible to the token — an all-sites token sees every subscription of its
 * account; any other token only those filtered to sites it can all view. Anything else is a 404, the
 * same as an unknown id (no existence leak).
 */
export function subscriptionVisibleSql(viewer: SiteViewer): Sql {
  return sql`(${viewer.allSites}::boolean OR (NOT s.all_sites AND NOT EXISTS (
      SELECT 1 FROM webhook_subscription_sites ws
      WHERE ws.account_id = s.account_id AND ws.subscription_id = s.id AND NOT ${siteVisibleSql(viewer, sql`ws.site_id`)})))`;
}

/** The site filter a subscription gets: `allSites`, or a list of sites the token can view. */
export interface SubscriptionSites {
  allSites: boolean;
  siteIds: number[];
}

/**
 * The sites of a new or changed subscription. Listed sites must be viewable (404 otherwise). No list:
 * every site for an all-sites token; for any other token its own sites, so that a subscription never
 * reports events of sites its maker cannot see.
 */
export async function subscriptionSites(
  db: Executor,
  principal: Principal,
  requested: number[] | undefined,
): Promise<SubscriptionSites> {
  const sites = await viewableSites(db, principal, requested);
  if (sites === undefined) return { allSites: true, siteIds: [] };
  // A filter to no site would never get an event, and (having no site the token cannot view) would show to
  // every site-limited token of the account.
  if (sites.length === 0) {
    throw validationFailed([
      { path: 'siteIds', message: 'Name at least one site (this token can view none of its own)' },
    ]);
  }
  return { allSites: false, siteIds: [...sites].sort((a, b) => a - b) };
}
