import { parse } from 'csv-parse/sync';
import { validationFailed } from '../errors/problem';

/** One record of an imported CSV file, and the line of the file it ends on. */
export interface CsvRecord {
  record: string[];
  info: { lines: number };
}

/**
 * Reads an imported list (RFC 4180 CSV, UTF-8, a BOM allowed) into its records, blank lines skipped and rows
 * of any length kept (each import judges its own columns). A file that is not CSV at all is a 422 of its own.
 */
export function readCsvRecords(text: string): CsvRecord[] {
  try {
    // With `info`, each record comes with where it ends in the file (the typings do not say so).
    return parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as unknown as CsvRecord[];
  } catch (error) {
    throw validationFailed(
      [{ path: '', message: error instanceof Error ? error.message : String(error) }],
      'The file is not readable CSV.',
    );
  }
}
