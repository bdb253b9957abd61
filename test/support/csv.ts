import { parse } from 'csv-parse/sync';

/**
 * An export's records, read by a standard CSV parser (csv-parse): RFC 4180 records ended by CRLF, quoted
 * cells holding commas, doubled quotes and line breaks. A file whose last record lacks its CRLF is refused.
 */
export function parseCsv(text: string): string[][] {
  if (text.length > 0 && !text.endsWith('\r\n')) throw new Error('the last record has no CRLF');
  return parse(text, { bom: true, record_delimiter: '\r\n', relax_quotes: false });
}
