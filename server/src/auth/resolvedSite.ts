import type { CheckinConfigUpdate } from '../../../shared/src/schemas/sites';
import type { SiteAccess } from './principal';

/** The columns a caller's lookup reads along with it: the path's site, if visible. */
export interface SiteColumns {
  site_id: number | null;
  site_name: string | null;
  timezone: string | null;
  checkin_config: CheckinConfigUpdate | null;
  config_version: number | null;
  site_archived_at: Date | null;
}

export function siteOfRow(row: SiteColumns): SiteAccess | undefined {
  if (row.site_id === null || row.site_name === null || row.timezone === null || !row.checkin_config) return undefined;
  return {
    siteId: row.site_id,
    name: row.site_name,
    timezone: row.timezone,
    checkinConfig: row.checkin_config,
    configVersion: row.config_version ?? 1,
    archivedAt: row.site_archived_at,
  };
}
