import type { Site } from '../../shared/src/schemas/sites';
import type { ConsoleWords } from '../language/consoleWords';

/** A site's name and time zone by id, for rows that carry only their siteId. */
export function siteLookup(
  words: ConsoleWords,
  sites: readonly Site[],
): {
  name: (siteId: number) => string;
  zone: (siteId: number) => string | undefined;
} {
  const byId = new Map(sites.map((site) => [site.siteId, site]));
  return {
    name: (siteId) => byId.get(siteId)?.name ?? words.t('common.siteNumbered', { id: String(siteId) }),
    zone: (siteId) => byId.get(siteId)?.timezone,
  };
}
