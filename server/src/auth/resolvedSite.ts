import type { CheckinConfigUpdate } from '../../../shared/src/schemas/sites';
import type { StoredOutcome } from '../idempotency/store';
import type { SiteAccess } from './principal';

/** The columns a caller's lookup reads along with it: the path's site (if visible) and the key's outcome. */
export interface SiteAndKeyColumns {
  site_id: number | null;
  site_name: string | null;
  timezone: string | null;
  checkin_config: CheckinConfigUpdate | null;
  config_version: number | null;
  site_archived_at: Date | null;
  stored_fingerprint: string | null;
  stored_status: number | null;
  stored_body: string | null;
  stored_headers: Record<string, string> | null;
}

export function storedOf(row: SiteAndKeyColumns): StoredOutcome | undefined {
  return row.stored_fingerprint !== null && row.stored_status !== null && row.stored_body !== null
    ? {
        fingerprint: row.stored_fingerprint,
        status: row.stored_status,
        body: row.stored_body,
        headers: row.stored_headers ?? {},
      }
    : undefined;
}

export function siteOfRow(row: SiteAndKeyColumns): SiteAccess | undefined {
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
