/** The byte order mark spreadsheet programs need to read the file as UTF-8. */
export const BOM = '\uFEFF';

/** A cell a spreadsheet would run as a formula starts with one of these: it is prefixed with `'`. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One RFC 4180 cell: neutralized against formula injection, quoted when it holds a comma, quote or line break. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF-terminated as RFC 4180 says. */
export const csvLine = (cells: ReadonlyArray<string | number | null | undefined>): string => `${cells.map(csvCell).join(',')}\r\n`;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** An instant as the site's wall-clock time with its offset then (`2026-10-25T02:30:00+01:00`). */
export function siteLocalIso(at: Date | null, timeZone: string): string {
  if (!at) return '';
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'longOffset',
    });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
  // `GMT+01:00`, or plain `GMT` at offset zero.
  const offset = (parts.timeZoneName ?? 'GMT').replace('GMT', '') || '+00:00';
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}
