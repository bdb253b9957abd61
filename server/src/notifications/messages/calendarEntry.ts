/** An iCalendar (RFC 5545) text value: backslash, semicolon, comma and line breaks escaped. */
const escapeText = (text: string) => text.replace(/[\\;,]/g, (char) => `\\${char}`).replace(/\r\n|\r|\n/g, '\\n');

/** A UTC date-time as iCalendar writes it: 20261124T083000Z. */
const utc = (at: Date) =>
  at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** Folds a content line at 75 octets (RFC 5545 §3.1), never inside a UTF-8 character. */
function fold(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    // The first line holds 75 octets; each continuation begins with a space, so it holds 74 more.
    if (octets + size > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

export interface CalendarVisit {
  /** Unique and stable for the visit, so a calendar replaces the entry when it is sent again. */
  uid: string;
  /** Higher for each newer version of the same entry. */
  sequence: number;
  start: Date;
  end: Date;
  summary: string;
  location: string;
  description: string;
  stamp: Date;
}

/**
 * A calendar entry of a visit (`METHOD:PUBLISH`: nothing to accept or decline), in UTC so it needs no time
 * zone definitions; lines end with CRLF and are folded, as calendar programs expect.
 */
export function calendarEntry(visit: CalendarVisit): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Gatehouse//Invitations//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${escapeText(visit.uid)}`,
    `SEQUENCE:${visit.sequence}`,
    `DTSTAMP:${utc(visit.stamp)}`,
    `DTSTART:${utc(visit.start)}`,
    `DTEND:${utc(visit.end)}`,
    `SUMMARY:${escapeText(visit.summary)}`,
    `LOCATION:${escapeText(visit.location)}`,
    `DESCRIPTION:${escapeText(visit.description)}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
