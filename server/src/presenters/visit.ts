import type { PersonCheckin } from '../../../shared/src/schemas/personCheckins';
import type { VisitRow } from '../queries/visitRows';

/** `entry` of any check-in, person or vehicle. */
export function presentEntry(row: VisitRow): PersonCheckin['entry'] {
  return { source: row.entry_source, at: row.entry_at.toISOString() };
}

/** `exit` of any check-in: null until it has both a time and a source. */
export function presentExit(row: VisitRow): PersonCheckin['exit'] {
  return row.exit_at && row.exit_source ? { source: row.exit_source, at: row.exit_at.toISOString() } : null;
}
