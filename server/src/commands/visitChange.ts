import { type Decider, changeStamp, resolveOccurredAt } from '../../../shared/src/domain';
import type { StopSource } from '../../../shared/src/schemas/alerts';
import type { Source } from '../../../shared/src/schemas/common';
import { problem } from '../errors/problem';
import { type OutboxEvent, outboxEvent } from '../outbox/events';
import type { VisitRow } from '../queries/visitRows';
import { stopAndDecision } from './decisions';

/** The effects every kind's transitions share: the visit's exit, and an event to emit. */
type SharedEffect = { type: 'SET_EXIT'; at: Date } | { type: 'EMIT'; event: string };

const isShared = (effect: { type: string }): effect is SharedEffect =>
  effect.type === 'SET_EXIT' || effect.type === 'EMIT';

/**
 * A visit (person or vehicle) as an accepted transition leaves it, in what every kind shares: its status and
 * event time, the deny's reason and stop, who decided, the change's stamp (`updated_at`), its exit, and the
 * events to emit. The kind's own effects (a person's breaks) come back for the kind to apply.
 */
export function changedVisit<
  Row extends VisitRow & { status: string; stop_reason: string | null },
  Effect extends { type: string },
>(
  row: Row,
  transition: { state: { status: Row['status']; lastEventAt: Date }; effects: Effect[] },
  change: {
    event: string;
    denyReason: string | undefined;
    /** The stop reason a deny leaves. */
    deniedStopReason: string | null;
    exitSource: Source;
    decider: Decider;
    now: Date;
  },
): { next: Row; emitted: string[]; own: Array<Exclude<Effect, SharedEffect>> } {
  // The stamp of the change (updatedAt, the events' createdAt); the state machine judged times by the clock.
  const stamp = changeStamp(change.now, row.updated_at);
  const next: Row = {
    ...row,
    status: transition.state.status,
    last_event_at: transition.state.lastEventAt,
    deny_reason: change.denyReason ?? row.deny_reason,
    stop_reason: change.event === 'DENY' ? change.deniedStopReason : row.stop_reason,
    updated_at: stamp,
  };
  Object.assign(next, stopAndDecision(next, change.event, change.decider, stamp));
  const emitted: string[] = [];
  const own: Array<Exclude<Effect, SharedEffect>> = [];
  for (const effect of transition.effects) {
    if (!isShared(effect)) own.push(effect as Exclude<Effect, SharedEffect>);
    else if (effect.type === 'SET_EXIT') {
      next.exit_at = effect.at;
      next.exit_source = change.exitSource;
    } else emitted.push(effect.event);
  }
  return { next, emitted, own };
}

/** The outbox events of a visit's change, each carrying the visit as it now is. */
export const visitEvents = (next: VisitRow, emitted: string[], resource: unknown): OutboxEvent[] =>
  emitted.map((type) =>
    outboxEvent({
      type,
      accountId: next.account_id,
      siteId: next.site_id,
      now: next.updated_at,
      data: { checkin: resource },
    }),
  );

/** When a new visit arrived: `occurredAt` as sent, if within its bounds (else 422), or now. */
export function arrivalTime(occurredAt: string | undefined, now: Date): Date {
  const time = resolveOccurredAt(occurredAt ? new Date(occurredAt) : undefined, now);
  if (!time.ok) throw problem('OCCURRED_AT_OUT_OF_RANGE', time.message);
  return time.at;
}

/**
 * A new visit's row as every kind finishes it: a STOP's source (a watchlist, a blocking label) and its
 * time, which is when the server learned of it (an offline kiosk's visit may arrive late: an alert is
 * never born old), and who decided.
 */
export function settledArrival<Row extends VisitRow & { status: string }>(
  row: Row,
  stopSource: StopSource,
  decider: Decider,
  now: Date,
): Row {
  if (row.status === 'STOP') Object.assign(row, { stop_source: stopSource, stopped_at: now });
  return Object.assign(row, stopAndDecision(row, 'ENTRY', decider, now));
}
