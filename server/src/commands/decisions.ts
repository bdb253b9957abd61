import { type Decider, decisionAfter, stopAfter } from '../../../shared/src/domain';
import type { VisitRow } from '../queries/visitRows';

/**
 * What a change of a visit (`ENTRY` for its creation, else its event) adds to the row beyond its state:
 * why and since when it is STOP, and who decided (shared/src/domain/visitChange.ts).
 */
export function stopAndDecision(row: VisitRow, change: string, decider: Decider, now: Date) {
  const stop = stopAfter(change, { source: row.stop_source, at: row.stopped_at }, now);
  const decided = decisionAfter(change, { by: row.decided_by, at: row.decided_at }, decider, now);
  return { stop_source: stop.source, stopped_at: stop.at, decided_by: decided.by, decided_at: decided.at };
}
