import {
  type ExportFilter,
  type PersonExportRow,
  type ReadRows,
  type VehicleExportRow,
  personExportPages,
  vehicleExportPages,
} from '../queries/checkinExport';
import type { CustomColumn } from '../queries/customColumns';
import { BOM, csvLine, siteLocalIso } from './csv';

/**
 * The lines of a page in chunks of a few kilobytes. The response stream buffers 16 chunks ahead of the
 * socket: whole pages waiting there outlived the young generation, and the heap grew with the file.
 */
function* chunks<T>(rows: T[], line: (row: T) => string): Generator<string> {
  for (let start = 0; start < rows.length; start += LINES_PER_CHUNK)
    yield rows
      .slice(start, start + LINES_PER_CHUNK)
      .map(line)
      .join('');
}
const LINES_PER_CHUNK = 50;

/** A custom field's value as a cell: text as it is, a checkbox as true/false, anything else as JSON. */
const customValue = (value: unknown): string | null => {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
};

/** The person check-ins export (docs/api.md, Export): the header, then one line per visit, a few kilobytes per chunk; `custom` from customColumns. */
export async function* personCheckinsCsv(
  read: ReadRows,
  filter: ExportFilter,
  custom: CustomColumn[],
): AsyncGenerator<string> {
  yield (
    BOM +
    csvLine([
      'checkinId',
      'site',
      'status',
      'firstName',
      'lastName',
      'email',
      'phone',
      'company',
      'host',
      'purpose',
      ...custom.map((column) => column.label),
      'entrySource',
      'entryTime',
      'exitSource',
      'exitTime',
      'breaks',
      'minutesOnBreak',
      'decidedBy',
    ])
  );
  const line = (row: PersonExportRow) =>
    csvLine([
      row.id,
      row.site_name,
      row.status,
      row.first_name,
      row.last_name,
      row.email,
      row.phone,
      row.company,
      row.host_name,
      row.purpose,
      ...custom.map((column) =>
        customValue(column.names.map((name) => row.custom_fields[name]).find((value) => value !== undefined)),
      ),
      row.entry_source,
      siteLocalIso(row.entry_ms, row.timezone),
      row.exit_source,
      siteLocalIso(row.exit_ms, row.timezone),
      row.breaks,
      row.break_minutes,
      row.decided_by,
    ]);
  for await (const page of personExportPages(read, filter)) yield* chunks(page, line);
}

/** The vehicle check-ins export (docs/api.md, Export). */
export async function* vehicleCheckinsCsv(read: ReadRows, filter: ExportFilter): AsyncGenerator<string> {
  yield (
    BOM +
    csvLine([
      'checkinId',
      'site',
      'status',
      'licensePlate',
      'driver',
      'notes',
      'entrySource',
      'entryTime',
      'exitSource',
      'exitTime',
      'stopReason',
      'decidedBy',
    ])
  );
  const line = (row: VehicleExportRow) =>
    csvLine([
      row.id,
      row.site_name,
      row.status,
      row.license_plate,
      row.driver_name,
      row.notes,
      row.entry_source,
      siteLocalIso(row.entry_ms, row.timezone),
      row.exit_source,
      siteLocalIso(row.exit_ms, row.timezone),
      row.stop_reason,
      row.decided_by,
    ]);
  for await (const page of vehicleExportPages(read, filter)) yield* chunks(page, line);
}
