/**
 * Times of a site are shown on the site's clock (its IANA time zone), not the browser's: a manager abroad
 * sees the times the site saw. Where the site's clock differs from the browser's at that instant, the zone
 * is named ("09:41 CET"), so a list mixing sites never looks out of order (docs/running-a-site.md, Times).
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let found = formatters.get(key);
  if (!found) {
    found = make();
    formatters.set(key, found);
  }
  return found;
}

const part = (format: Intl.DateTimeFormat, at: Date, type: Intl.DateTimeFormatPartTypes) =>
  format.formatToParts(at).find((item) => item.type === type)?.value ?? '';

/** The browser's own time zone. */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** "GMT+01:00": the zone's offset from UTC at that instant. */
const offsetAt = (at: Date, timeZone: string) =>
  part(
    formatter(`offset ${timeZone}`, () => new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })),
    at,
    'timeZoneName',
  );

// English names of zones as people write them: US ones (EST) from en-US, European ones (CET, BST) from
// en-GB, and so on; a zone with none of its own is named by its offset (GMT+9).
const NAMING_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN'];

/** The zone's short name at that instant: "CET", "EDT", "GMT+9". */
export function zoneAbbreviation(at: Date, timeZone: string): string {
  const names = NAMING_LOCALES.map((locale) =>
    part(
      formatter(`${locale} ${timeZone}`, () => new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' })),
      at,
      'timeZoneName',
    ),
  );
  return names.find((name) => /^[A-Z]{2,5}$/.test(name)) ?? names[0] ?? timeZone;
}

/** " CET" when the site's clock differs from the viewer's at that instant, else nothing. */
export function zoneSuffix(at: Date, timeZone: string | undefined, viewerZone = browserZone()): string {
  if (timeZone === undefined || offsetAt(at, timeZone) === offsetAt(at, viewerZone)) return '';
  return ` ${zoneAbbreviation(at, timeZone)}`;
}

/**
 * "14:05" today, "25 Nov, 14:05" before, on the site's clock; "14:05 CET" where that is not the browser's.
 * Without a zone: the browser's clock.
 */
export function since(iso: string, timeZone?: string, now = new Date(), viewerZone = browserZone()): string {
  const at = new Date(iso);
  const day = (date: Date) => date.toLocaleDateString('en-CA', { timeZone });
  const time = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', timeZone });
  const shown =
    day(at) === day(now)
      ? time
      : `${at.toLocaleDateString(undefined, { day: 'numeric', month: 'short', timeZone })}, ${time}`;
  return `${shown}${zoneSuffix(at, timeZone, viewerZone)}`;
}

/** "25 Nov 2026, 14:05" as the clock at the site showed it; " CET" after it where that is not the browser's. */
export function atSite(iso: string, timeZone: string, viewerZone = browserZone()): string {
  const at = new Date(iso);
  const shown = formatter(
    `day ${timeZone}`,
    () =>
      new Intl.DateTimeFormat(undefined, {
        timeZone,
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      }),
  ).format(at);
  return `${shown}${zoneSuffix(at, timeZone, viewerZone)}`;
}

/** Oldest first by the instant itself, whatever zone or format its text is in. */
export const byInstant = (a: string, b: string): number => Date.parse(a) - Date.parse(b);
