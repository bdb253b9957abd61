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

/** Those columns of a check-in that is being created now, entered through `source` at `at`. */
export function arrivingVisit(input: { accountId: number; id: number; siteId: number; source: Source; at: Date; now: Date }): VisitRow {
  return {
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
}
