import type { StopSource } from '../schemas/alerts';
import type { Actor } from '../schemas/staff';

/** Who acts on a visit: the actor, and whether it is a staff user (whose every change is a decision). */
export interface Decider {
  actor: Actor;
  byUser: boolean;
}

/** Who last decided a visit, and when (docs/api.md, Who decided). */
export interface VisitDecision {
  by: Actor | null;
  at: Date | null;
}

/** Why and since when a visit is STOP (for alerts). */
export interface VisitStop {
  source: StopSource | null;
  at: Date | null;
}

/** Changes that decide a visit whoever makes them. */
const DECISIVE = new Set(['APPROVE', 'DENY']);

/**
 * Who decided a change of a visit (`ENTRY` for its creation): approve and deny always record their actor;
 * entering and checking out only when a staff user did it. Otherwise the visit keeps what it had.
 */
export function decisionAfter(change: string, previous: VisitDecision, decider: Decider, at: Date): VisitDecision {
  if (!DECISIVE.has(change) && !decider.byUser) return previous;
  return { by: decider.actor, at };
}

/**
 * A deny stops the visit, from when the server learned of it (a deny made offline may arrive late: an
 * alert is never born old); any other change leaves the stop as it was.
 */
export function stopAfter(change: string, previous: VisitStop, at: Date): VisitStop {
  return change === 'DENY' ? { source: 'denied', at } : previous;
}

/**
 * The stamp of a visit's change (`updated_at`, its events' `createdAt`): `now`, or a millisecond after the
 * last change when the clock says earlier (a request planned again after a race, or an instance whose clock is
 * behind). So one check-in's times only grow, and a webhook receiver ordering by them ends in the last state.
 */
export function changeStamp(now: Date, lastChange: Date): Date {
  return now.getTime() > lastChange.getTime() ? now : new Date(lastChange.getTime() + 1);
}
