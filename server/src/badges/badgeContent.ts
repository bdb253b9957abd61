import { badgeQrText, badgeValidUntil } from '../../../shared/src/domain/badge';
import type { PersonCheckinRow } from '../queries/personCheckinRows';
import type { BadgeContent } from './badgeDocument';
import type { BadgeLabels } from './labels';

/**
 * What a visit's badge says: who, from where, to see whom, at which site and on which day (the visit's
 * entry, in the site's time zone), and until when it is valid (the end of the day it is printed).
 */
export function badgeContent(
  row: PersonCheckinRow & { badge_code: string },
  site: { name: string; timezone: string },
  printedAt: Date,
  labels: BadgeLabels,
): BadgeContent {
  const date = (instant: Date) =>
    new Intl.DateTimeFormat(labels.locale, {
      timeZone: site.timezone,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
    }).format(instant);
  const validUntil = badgeValidUntil(printedAt, site.timezone);
  const time = new Intl.DateTimeFormat(labels.locale, {
    timeZone: site.timezone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(validUntil);
  return {
    name: `${row.first_name} ${row.last_name}`.trim(),
    company: row.company,
    hostLine: row.host_name ? labels.host(row.host_name) : null,
    siteLine: `${site.name} · ${date(row.entry_at)}`,
    validLine: labels.validUntil(time, date(validUntil)),
    band: labels.visitor,
    dir: labels.dir,
    qrText: badgeQrText({ siteId: row.site_id, checkinId: row.id, code: row.badge_code }),
  };
}
