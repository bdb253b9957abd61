import type { SiteAccess } from '../auth/principal';
import { conflict } from '../errors/problem';

/** An archived site takes no new visits (people or vehicles); those in progress can still finish. */
export function refuseIfArchived(site: Pick<SiteAccess, 'siteId' | 'archivedAt'>): void {
  if (site.archivedAt === null) return;
  throw conflict(
    'SITE_ARCHIVED',
    `Site ${site.siteId} is archived: it takes no new check-ins. Restore it to check visitors in.`,
  );
}
