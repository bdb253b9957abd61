import { type Decider, type VisitRow, decision } from '../queries/visitRows';

/** Changes that decide a visit whoever makes them. */
const DECISIVE = new Set(['APPROVE', 'DENY']);

/**
 * What a transition of `event` adds to a visit beyond its state: a deny stops it (an alert, from when the
 * server learned of it: a deny made offline may arrive late), and who decided (docs/api.md, Who decided).
 */
export function stopAndDecision(row: VisitRow, event: string, decider: Decider, now: Date) {
  const stop =
    event === 'DENY'
      ? { stop_source: 'denied' as const, stopped_at: now }
      : { stop_source: row.stop_source, stopped_at: row.stopped_at };
  return { ...stop, ...decision(row, { decider, decisive: DECISIVE.has(event), at: now }) };
}
