/**
 * The words printed on a badge besides the visitor's own details, by language. English only for now: the
 * languages work (CONTRACT §26) adds catalogs here, and the badge follows the site's or visitor's language.
 */
export interface BadgeLabels {
  /** BCP 47 tag the dates are written in. */
  locale: string;
  visitor: string;
  host: string;
  validUntil: string;
}

const english: BadgeLabels = { locale: 'en-GB', visitor: 'VISITOR', host: 'Host', validUntil: 'Valid until' };

const catalogs: Record<string, BadgeLabels> = { en: english };

/** The badge's words in `language` (a BCP 47 tag; its primary subtag is looked up), English when there are none. */
export function badgeLabels(language = 'en'): BadgeLabels {
  return catalogs[language.toLowerCase().split('-')[0] ?? 'en'] ?? english;
}
