/**
 * Days as a site sees them: a calendar date (`2026-10-25`) in the site's IANA time zone, and the instants
 * where such a day begins. Pure (the time is passed in); Intl knows the zones in browsers and in Node.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [, year, month, day] = match.map(Number);
  const at = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 0));
  return at.getUTCFullYear() === year && at.getUTCMonth() + 1 === month && at.getUTCDate() === day;
}

/** The site's calendar date at `instant` (`YYYY-MM-DD`). Throws a RangeError for an unknown zone. */
export function siteDate(instant: Date, timeZone: string): string {
  const parts = formatterFor(timeZone).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((item) => item.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The date `days` after (or before) `date`; calendar arithmetic, no zone involved. */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, (day ?? 0) + days)).toISOString().slice(0, 10);
}

/**
 * The first instant of `date` in `timeZone`: its local midnight, or, where a clock change skips midnight,
 * the moment the day begins. A binary search on the local date (offsets lie within a day of UTC), so it
 * needs no table of offsets and is exact to the millisecond across daylight-saving changes.
 */
export function startOfSiteDay(date: string, timeZone: string): Date {
  if (!isCalendarDate(date)) throw new RangeError(`Not a calendar date: ${date}`);
  const [year, month, day] = date.split('-').map(Number);
  const utcMidnight = Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 0);
  // The local date reaches `date` somewhere in (low, high]; `YYYY-MM-DD` strings compare as dates.
  let low = utcMidnight - DAY_MS;
  let high = utcMidnight + DAY_MS;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (siteDate(new Date(middle), timeZone) >= date) high = middle;
    else low = middle;
  }
  return new Date(high);
}

/** The instants [start, end) of the days `from` to `to` (both included) in `timeZone`. */
export function siteDayRange(from: string, to: string, timeZone: string): { start: Date; end: Date } {
  return { start: startOfSiteDay(from, timeZone), end: startOfSiteDay(addDays(to, 1), timeZone) };
}
