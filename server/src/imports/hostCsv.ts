import { z } from 'zod';
import { Email } from '../../../shared/src/schemas/staff';
import { validationFailed } from '../errors/problem';
import { readCsvRecords } from './csvRecords';

/** One data line of a host import, as written (docs/notifications.md, Importing hosts). */
export interface HostCsvLine {
  /** The line of the file the record starts on (the header is line 1). */
  line: number;
  name: string;
  email: string;
  phone: string | null;
  /** `*`: every site; otherwise site names or ids. */
  sites: { all: true } | { all: false; names: string[] };
}

const COLUMNS = ['name', 'email', 'phone', 'sites'] as const;
type Column = (typeof COLUMNS)[number];

const Name = z.string().trim().min(1, 'name is empty').max(200, 'name is over 200 characters');
const Phone = z.string().trim().max(40, 'phone is over 40 characters').regex(/\d/, 'phone has no digits');

/** Where the header's columns are; 422 for a file whose first line is not `name,email,phone,sites` (any order). */
function columnsOf(header: string[]): Record<Column, number> {
  const names = header.map((cell) => cell.trim().toLowerCase());
  const missing = COLUMNS.filter((column) => !names.includes(column));
  const unknown = names.filter((name) => !(COLUMNS as readonly string[]).includes(name));
  if (missing.length > 0 || unknown.length > 0 || names.length !== COLUMNS.length) {
    throw validationFailed(
      [{ path: '', message: 'The first line must be the header name,email,phone,sites' }],
      'The file is not a host list.',
    );
  }
  return Object.fromEntries(COLUMNS.map((column) => [column, names.indexOf(column)])) as Record<Column, number>;
}

/**
 * Reads a host list (RFC 4180 CSV, UTF-8, a BOM allowed): each data line becomes a line to import, or the
 * reason it cannot be one. A file that is not CSV at all, or has another header, is a 422 of its own.
 */
export function readHostCsv(text: string): Array<HostCsvLine | { line: number; detail: string }> {
  const [header, ...rows] = readCsvRecords(text);
  if (!header) throw validationFailed([{ path: '', message: 'The file is empty' }], 'The file is not a host list.');
  const at = columnsOf(header.record);
  return rows.map(({ record, info }) => {
    // The line the record starts on: csv-parse counts to where it ends (a quoted cell may hold line breaks).
    const line = info.lines - record.reduce((sum, cell) => sum + (cell.match(/\n/g)?.length ?? 0), 0);
    if (record.length !== COLUMNS.length) return { line, detail: `Expected 4 cells, found ${record.length}` };
    const cell = (column: Column) => (record[at[column]] ?? '').trim();
    const name = Name.safeParse(cell('name'));
    if (!name.success) return { line, detail: name.error.issues[0]?.message ?? 'name is not valid' };
    const email = Email.safeParse(cell('email'));
    if (!email.success)
      return { line, detail: cell('email') === '' ? 'email is empty' : 'email is not an email address' };
    let phone: string | null = null;
    if (cell('phone') !== '') {
      const parsed = Phone.safeParse(cell('phone'));
      if (!parsed.success) return { line, detail: parsed.error.issues[0]?.message ?? 'phone is not valid' };
      phone = parsed.data;
    }
    const sites = cell('sites');
    if (sites === '')
      return { line, detail: 'sites is empty: give site names or ids separated by ;, or * for every site' };
    if (sites === '*') return { line, name: name.data, email: email.data, phone, sites: { all: true } };
    const names = [
      ...new Set(
        sites
          .split(';')
          .map((part) => part.trim())
          .filter((part) => part !== ''),
      ),
    ];
    return { line, name: name.data, email: email.data, phone, sites: { all: false, names } };
  });
}
