/**
 * Times as each language writes them, through Intl in the language's locale (docs/languages.md, Times): a
 * 24-hour clock with two-digit hours ("09:05"), a 12-hour one as its readers write it ("9:05 ص", not
 * "09:05 ص"), and a day that never runs into the time (Chinese "周一 09:05", not "周一09:05").
 */

type At = Date | number | string;

/** Two-digit hours on a 24-hour clock, as a lobby's clock shows them; plain hours on a 12-hour one. */
function clockOptions(locale: string): Intl.DateTimeFormatOptions {
  const cycle = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hourCycle;
  return { hour: cycle === 'h11' || cycle === 'h12' ? 'numeric' : '2-digit', minute: '2-digit' };
}

/** Intl's parts, with a space where a day or date would touch the hour. */
function written(locale: string, at: At, options: Intl.DateTimeFormatOptions): string {
  const parts = new Intl.DateTimeFormat(locale, { ...clockOptions(locale), ...options }).formatToParts(new Date(at));
  return parts
    .map((part, index) => {
      const before = parts[index - 1];
      return part.type === 'hour' && before && before.type !== 'literal' ? ` ${part.value}` : part.value;
    })
    .join('');
}

/** "09:05", "9:05 ص". */
export const clockTime = (locale: string, at: At, timeZone?: string): string => written(locale, at, { timeZone });

/** "Mon 09:05", "周一 09:05", "الاثنين 9:05 م". */
export const dayAndTime = (locale: string, at: At, timeZone?: string): string =>
  written(locale, at, { weekday: 'short', timeZone });

/** "24 Nov, 09:05", "11月24日 09:05", "24 نوفمبر، 9:05 ص". */
export const dateAndTime = (locale: string, at: At, timeZone?: string): string =>
  written(locale, at, { day: 'numeric', month: 'short', timeZone });

/**
 * The time on a site's clock with its zone after it, in every language: "Tue 24 Nov, 09:05 CET",
 * "11月24日周二 09:05 GMT+1" (Intl alone puts a Chinese zone between the date and the time).
 */
export function zonedTime(locale: string, at: At, timeZone: string): string {
  const when = written(locale, at, { weekday: 'short', day: 'numeric', month: 'short', timeZone });
  const zone = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' })
    .formatToParts(new Date(at))
    .find((part) => part.type === 'timeZoneName')?.value;
  return zone ? `${when} ${zone}` : when;
}
