import type { PersonCheckin } from '../../../shared/src/schemas/personCheckins';
import type { VisitRow } from '../db/visitRows';

/** `entry` and `exit` of any check-in, person or vehicle: exit is null until it has both a time and a source. */
export function presentPassage(row: VisitRow): Pick<PersonCheckin, 'entry' | 'exit'> {
  return {
    entry: { source: row.entry_source, at: row.entry_at.toISOString() },
    exit: row.exit_at && row.exit_source ? { source: row.exit_source, at: row.exit_at.toISOString() } : null,
  };
}
