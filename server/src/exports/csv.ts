/** The byte order mark spreadsheet programs need to read the file as UTF-8. */
export const BOM = '\uFEFF';

/**
 * A cell a spreadsheet would run as a formula: its first character that is not white space or an invisible
 * format character (Unicode Cf: zero-width space, BOM, bidi marks) is a trigger, in ASCII or its full-width
 * form (＝ ＋ － ＠), or the cell starts with a tab or CR as before. Such a cell is prefixed with `'`.
 */
const FORMULA_START = /^[\t\r]|^[\s\p{Cf}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/u;

/** One RFC 4180 cell: neutralized against formula injection, quoted when it holds a comma, quote or line break. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF-terminated as RFC 4180 says. */
export const csvLine = (cells: ReadonlyArray<string | number | null | undefined>): string =>
  `${cells.map(csvCell).join(',')}\r\n`;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** The zone's offset at `ms` in milliseconds, and as text (`+01:00`), from Intl. */
function offsetAt(ms: number, timeZone: string): { ms: number; text: string } {
  const parts = Object.fromEntries(
    formatterOf(timeZone)
      .formatToParts(ms)
      .map((part) => [part.type, part.value]),
  );
  // `GMT+01:00`, or plain `GMT` at offset zero.
  const text = (parts.timeZoneName ?? 'GMT').replace('GMT', '') || '+00:00';
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return { ms: wall - Math.floor(ms / 1000) * 1000, text };
}

/**
 * Offsets by zone and quarter hour, kept when the offset is the same at both ends of the quarter (else asked
 * per instant): asking Intl for every cell of a million-row export was most of its garbage.
 */
const QUARTER_MS = 900_000;
const offsets = new Map<string, { ms: number; text: string }>();
const MAX_OFFSETS = 10_000;

function cachedOffset(ms: number, timeZone: string): { ms: number; text: string } {
  const start = Math.floor(ms / QUARTER_MS) * QUARTER_MS;
  const key = `${timeZone} ${start}`;
  const known = offsets.get(key);
  if (known) return known;
  const first = offsetAt(start, timeZone);
  if (first.ms !== offsetAt(start + QUARTER_MS - 1000, timeZone).ms) return offsetAt(ms, timeZone);
  if (offsets.size >= MAX_OFFSETS) offsets.clear();
  offsets.set(key, first);
  return first;
}

/** An instant as the site's wall-clock time with its offset then (`2026-10-25T02:30:00+01:00`), to the second. */
export function siteLocalIso(at: Date | number | null, timeZone: string): string {
  if (at === null) return '';
  const ms = typeof at === 'number' ? at : at.getTime();
  const offset = cachedOffset(ms, timeZone);
  const wall = new Date(Math.floor(ms / 1000) * 1000 + offset.ms).toISOString();
  return `${wall.slice(0, 19)}${offset.text}`;
}
