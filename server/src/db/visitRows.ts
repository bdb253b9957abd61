import type { Source } from '../../../shared/src/schemas/common';

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
    created_at: input.now,
    updated_at: input.now,
  };
  return Object.assign(visit, columns);
}

/**
 * The stamp of a visit's change (`updated_at`, its events' `createdAt`): `now`, or a millisecond after the
 * last change when the clock says earlier (a request planned again after a race, or an instance whose clock is
 * behind). So one check-in's times only grow, and a webhook receiver ordering by them ends in the last state.
 */
export function changeStamp(now: Date, lastChange: Date): Date {
  return now.getTime() > lastChange.getTime() ? now : new Date(lastChange.getTime() + 1);
}
