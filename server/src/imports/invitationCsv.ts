import { validationFailed } from '../errors/problem';
import { readCsvRecords } from './csvRecords';

/** The columns of an invitation list (docs/invitations.md, Importing): the first four are required. */
const REQUIRED = ['site', 'firstname', 'lastname', 'expectedat'] as const;
const OPTIONAL = ['email', 'phone', 'company', 'host', 'purpose', 'validfrom', 'validuntil'] as const;
type Column = (typeof REQUIRED)[number] | (typeof OPTIONAL)[number];
const COLUMNS: readonly string[] = [...REQUIRED, ...OPTIONAL];

/** One data line as written: each cell trimmed, an empty one absent. */
export interface InvitationCsvLine {
  /** The line of the file the record starts on (the header is line 1). */
  line: number;
  cells: Partial<Record<Column, string>>;
}

const notAList = (message: string) => validationFailed([{ path: '', message }], 'The file is not an invitation list.');

/** Where the header's columns are; 422 for a header without the required columns, or with one it does not know. */
function columnsOf(header: string[]): Array<Column | undefined> {
  const names = header.map((cell) => cell.trim().toLowerCase());
  const unknown = names.filter((name) => !COLUMNS.includes(name));
  const missing = REQUIRED.filter((column) => !names.includes(column));
  if (unknown.length > 0 || missing.length > 0 || new Set(names).size !== names.length) {
    throw notAList(
      `The first line must name the columns site,firstName,lastName,expectedAt (required) and any of email,phone,company,host,purpose,validFrom,validUntil${unknown.length > 0 ? `; unknown: ${unknown.join(', ')}` : ''}`,
    );
  }
  return names.map((name) => (COLUMNS.includes(name) ? (name as Column) : undefined));
}

/**
 * Reads an invitation list (RFC 4180 CSV, UTF-8, a BOM allowed) into its lines, each cell by column. A file
 * that is not CSV at all, or whose header is not one, is a 422 of its own; a line's values are judged later.
 */
export function readInvitationCsv(text: string): Array<InvitationCsvLine | { line: number; detail: string }> {
  const [header, ...rows] = readCsvRecords(text);
  if (!header) throw notAList('The file is empty');
  const columns = columnsOf(header.record);
  return rows.map(({ record, info }) => {
    // The line the record starts on: csv-parse counts to where it ends (a quoted cell may hold line breaks).
    const line = info.lines - record.reduce((sum, cell) => sum + (cell.match(/\n/g)?.length ?? 0), 0);
    if (record.length !== columns.length)
      return { line, detail: `Expected ${columns.length} cells, found ${record.length}` };
    const cells: Partial<Record<Column, string>> = {};
    record.forEach((cell, index) => {
      const column = columns[index];
      if (column && cell.trim() !== '') cells[column] = cell.trim();
    });
    return { line, cells };
  });
}
