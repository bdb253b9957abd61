import type { Site } from '../../shared/src/schemas/sites';

/** A site's name and time zone by id, for rows that carry only their siteId. */
export function siteLookup(sites: readonly Site[]): {
  name: (siteId: number) => string;
  zone: (siteId: number) => string | undefined;
} {
  const byId = new Map(sites.map((site) => [site.siteId, site]));
  return {
    name: (siteId) => byId.get(siteId)?.name ?? `Site ${siteId}`,
    zone: (siteId) => byId.get(siteId)?.timezone,
  };
}
