import type { CheckinConfig, Site } from '../../../shared/src/schemas/sites';
import type { SiteAccess } from '../auth/principal';

export const presentSite = (site: { siteId: number; name: string; timezone: string }): Site => ({
  siteId: site.siteId,
  name: site.name,
  timezone: site.timezone,
});

export const presentConfig = (site: SiteAccess): CheckinConfig => ({
  siteId: site.siteId,
  requiresApproval: site.checkinConfig.requiresApproval,
  fields: site.checkinConfig.fields,
});

/** A strong validator that changes with every configuration write. */
export const configEtag = (site: { siteId: number; configVersion: number }) => `"cfg-${site.siteId}-${site.configVersion}"`;
