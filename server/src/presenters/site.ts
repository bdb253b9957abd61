import type { Language } from '../../../shared/src/messages/languages';
import type { BadgeSettings, CheckinConfig, Site, VisitSettings } from '../../../shared/src/schemas/sites';
import type { SiteAccess } from '../auth/principal';

export const presentSite = (site: {
  siteId: number;
  name: string;
  timezone: string;
  archivedAt: Date | null;
  badge: BadgeSettings;
  defaultLanguage: Language;
  visit: VisitSettings;
}): Site => ({
  siteId: site.siteId,
  name: site.name,
  timezone: site.timezone,
  archivedAt: site.archivedAt?.toISOString() ?? null,
  badge: { enabled: site.badge.enabled, size: site.badge.size },
  defaultLanguage: site.defaultLanguage,
  visit: { code: site.visit.code, requiresApproval: site.visit.requiresApproval },
});

export const presentConfig = (site: SiteAccess): CheckinConfig => ({
  siteId: site.siteId,
  version: site.configVersion,
  requiresApproval: site.checkinConfig.requiresApproval,
  // In the documented key order (name, label, type, required, options): jsonb keeps its own.
  fields: site.checkinConfig.fields.map(({ name, label, type, required, options }) => ({
    name,
    label,
    type,
    required,
    ...(options === undefined ? {} : { options }),
  })),
});

/** A strong validator that changes with every configuration write. */
export const configEtag = (site: { siteId: number; configVersion: number }) =>
  `"cfg-${site.siteId}-${site.configVersion}"`;
