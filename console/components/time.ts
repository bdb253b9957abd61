/**
 * "14:05" today, "25 Nov, 14:05" before: when a visit started or an alert came, on the clock of the site
 * it happened at (its IANA time zone), not the browser's: a manager abroad sees the times the site saw.
 */
export function since(iso: string, timeZone?: string, now = new Date()): string {
  const at = new Date(iso);
  const day = (date: Date) => date.toLocaleDateString('en-CA', { timeZone });
  const time = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', timeZone });
  return day(at) === day(now)
    ? time
    : `${at.toLocaleDateString(undefined, { day: 'numeric', month: 'short', timeZone })}, ${time}`;
}
