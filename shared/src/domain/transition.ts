import type { TransitionRejectionCode } from '../errors';
import { resolveOccurredAt } from './occurredAt';

/** The outcome of one event: the next state with its recorded time and effects, or a typed rejection. */
export type Transition<S, E> =
  { ok: true; state: S; at: Date; effects: E[] } | { ok: false; code: TransitionRejectionCode; message: string };

/** A rejection caused by the current state, as opposed to the event's time. */
export type StateConflictCode = Exclude<TransitionRejectionCode, 'OCCURRED_AT_OUT_OF_RANGE'>;

/** One cell of a machine's table: where an event leads from a status, or which conflict it is. */
export type TransitionRule<Status, Effect> =
  { to: Status; effects: (at: Date) => Effect[] } | { reject: StateConflictCode };

const conflictMessages: Record<StateConflictCode, string> = {
  BREAK_ALREADY_OPEN: 'This check-in already has an open break.',
  NO_OPEN_BREAK: 'This check-in has no open break to end.',
  CHECKIN_CLOSED: 'This check-in is already checked out.',
  CHECKIN_NOT_ADMITTED: 'This check-in has not been admitted to the site.',
  NOT_PENDING: 'Only a check-in that is waiting for approval can be approved or denied.',
};

/** Applies one table cell: the state check first, then the time check, so a conflict is reported even for a bad time. */
export function applyRule<Status, Effect>(
  rule: TransitionRule<Status, Effect>,
  lastEventAt: Date,
  occurredAt: Date | undefined,
  now: Date,
): Transition<{ status: Status; lastEventAt: Date }, Effect> {
  if ('reject' in rule) return { ok: false, code: rule.reject, message: conflictMessages[rule.reject] };
  const time = resolveOccurredAt(occurredAt, now, lastEventAt);
  if (!time.ok) return time;
  return { ok: true, state: { status: rule.to, lastEventAt: time.at }, at: time.at, effects: rule.effects(time.at) };
}
