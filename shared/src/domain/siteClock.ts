import { isCalendarDate } from './siteDay';

/** `YYYY-MM-DD HH:MM` (or with a `T`), a time on a site's clock. */
const LOCAL = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})$/;

/** Minutes the zone is ahead of UTC at `instant`. */
function offsetMinutes(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((item) => item.type === type)?.value ?? 0);
  const asUtc = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'));
  return Math.round((asUtc - Math.floor(instant / 60_000) * 60_000) / 60_000);
}

/**
 * The instant a site's clock reads `YYYY-MM-DD HH:MM` (docs/invitations.md, Importing), or undefined for
 * text that is no such time. A time a clock change skips (02:30 on the spring-forward night) is read with
 * the offset from before the change, so it lands just after it; a time it repeats is its first occurrence.
 */
export function siteLocalInstant(text: string, timeZone: string): Date | undefined {
  const match = LOCAL.exec(text.trim());
  if (!match) return undefined;
  const [, date = '', hours = '', minutes = ''] = match;
  if (!isCalendarDate(date) || Number(hours) > 23 || Number(minutes) > 59) return undefined;
  const [year, month, day] = date.split('-').map(Number);
  const wall = Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 0, Number(hours), Number(minutes));
  // The zone's offsets half a day either side: the instant is wall time minus one of them, whichever reads back.
  const offsets = [offsetMinutes(wall - 43_200_000, timeZone), offsetMinutes(wall + 43_200_000, timeZone)];
  const readsBack = offsets
    .map((offset) => wall - offset * 60_000)
    .filter((instant) => instant + offsetMinutes(instant, timeZone) * 60_000 === wall);
  const [earlier = wall - (offsets[0] ?? 0) * 60_000] = readsBack.sort((a, b) => a - b);
  return new Date(earlier);
}
