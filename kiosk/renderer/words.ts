import { isKnown } from '../../shared/src/client/answers';
import { type FormError, type PersonStatus, type VehicleStatus, personStatuses } from '../../shared/src/domain';
import type { ActionError, KeptPersonStatus, VehicleVisit } from '../src/data/types';

/** How a person's state reads on screen. */
const personStatusWords: Record<PersonStatus, string> = {
  IN: 'On site',
  ON_BREAK: 'On a break',
  PENDING: 'Waiting for approval',
  STOP: 'Please see reception',
  OUT: 'Left',
};

/** A person's status in words; one a newer server added has no words here, so it shows as it came. */
export function personStatusText(status: KeptPersonStatus): string {
  return isKnown(personStatuses, status) ? personStatusWords[status] : status;
}

/**
 * The heading of a gate's result card: what happened at the gate, by the visit's status as the kiosk knows
 * it now (a card follows its visit). An Exit card says the Exit, whatever the Entry was.
 */
export function gateCardHeading(action: 'Entry' | 'Exit' | 'Admit' | 'Refuse', status: VehicleStatus): string {
  if (action === 'Exit') return 'Exit recorded';
  return { IN: 'Entry allowed', PENDING: 'Waiting for a decision', STOP: 'Entry refused', OUT: 'Left the site' }[
    status
  ];
}

/** A registered vehicle as the guard checks it against the car in front of him: "Volvo XC60 · Blue". */
export function vehicleDescription(known: { make: string | null; model: string | null; color: string | null }): string {
  const name = [known.make, known.model].filter((part) => part?.trim()).join(' ');
  return [name, known.color?.trim() ?? ''].filter(Boolean).join(' · ') || 'Registered vehicle';
}

/**
 * When the server decided a vehicle's Entry otherwise than this kiosk predicted (its copy of the vehicles
 * was behind, or it had none), what the server decided, said so: "The server decided: STOP — Blocked by
 * label: Banned". Undefined while the server has not answered, or when it agreed.
 */
export function entryOverruled(
  visit: Pick<VehicleVisit, 'predicted' | 'predictedStopReason' | 'entryDecision'>,
): string | undefined {
  const decided = visit.entryDecision;
  if (!decided) return undefined;
  const sameReason = decided.status !== 'STOP' || decided.stopReason === (visit.predictedStopReason ?? null);
  if (decided.status === visit.predicted && sameReason) return undefined;
  return `The server decided: ${decided.status}${decided.stopReason ? ` — ${decided.stopReason}` : ''}`;
}

// Refusals that read the same whoever refused: a form's (its fields are marked one by one beside it) and
// the state conflicts, whose message comes from the domain shared with the server, in API words ("check-in").
const sharedReasons: Record<string, string> = {
  VALIDATION_FAILED: 'Some details were not accepted.',
  CHECKIN_CLOSED: 'This visit is already checked out.',
  BREAK_ALREADY_OPEN: 'A break has already started.',
  NO_OPEN_BREAK: 'There is no break to end.',
  CHECKIN_NOT_ADMITTED: 'This visit has not been admitted yet (waiting for approval, or stopped).',
};

// Plain words for what the server refused (Needs attention); the server's own detail is shown beneath as a hint.
const serverReasons: Record<string, string> = {
  ...sharedReasons,
  NOT_FOUND: 'The server does not know this site or visit. This kiosk may no longer have access to the site.',
  UNAUTHENTICATED: 'The server no longer accepts this kiosk. Ask an administrator to pair it again.',
  INSUFFICIENT_SCOPE: 'This kiosk is not allowed to do that. Ask an administrator.',
  OCCURRED_AT_OUT_OF_RANGE:
    'The server does not accept the time this was recorded at (more than 7 days ago, or ahead of its clock).',
  OCCURRED_AT_IN_FUTURE: "This was recorded at a time ahead of the server's clock: this device's clock was wrong.",
  UNKNOWN_STATUS: 'The server shows this visit in a state this kiosk does not know. Ask reception.',
  VEHICLE_ALREADY_ON_SITE: 'This vehicle is already on site.',
  NOT_PENDING: 'The server had already decided this vehicle: it was no longer waiting for a guard.',
  LICENSE_PLATE_TAKEN: 'This plate is already registered.',
  IDEMPOTENCY_KEY_REUSED: 'The server saw a different request under the same key. Discard it and try again.',
};

/**
 * The sentence for a refusal by one of this kiosk's own commands. Their messages are written for people and
 * name the cause ("This visit is not on this kiosk.", "AB 1 is already on site (PENDING)."), which the
 * server's words would misplace or lose; only the shared refusals read better in other words.
 */
export function plainReason(code: string, message: string): string {
  return sharedReasons[code] ?? message;
}

const asSentence = (text: string) => (/[.!?]$/u.test(text) ? text : `${text}.`);

/**
 * The gate's sentence for a refused action. The plate is the gate's only field and nothing marks it, so a
 * plate the rules refuse is explained by the rule it broke.
 */
export function gateReason(refusal: { code: string; message: string; errors?: readonly FormError[] }): string {
  const rules =
    refusal.code === 'VALIDATION_FAILED' ? (refusal.errors ?? []).map((error) => asSentence(error.message)) : [];
  return rules.length > 0 ? rules.join(' ') : plainReason(refusal.code, refusal.message);
}

/** Needs attention: what went wrong with a refused action, in words. */
export function describeRefusal(error: ActionError | null): { reason: string; detail: string | undefined } {
  if (!error) return { reason: 'The server refused this action.', detail: undefined };
  const reason = serverReasons[error.code] ?? 'The server refused this action.';
  return { reason, detail: error.message && error.message !== reason ? error.message : undefined };
}

/** "26 Nov 09:41": a time in a list of visits that may go back weeks. */
export function dayAndTime(iso: string): string {
  const at = new Date(iso);
  return `${at.toLocaleDateString([], { day: 'numeric', month: 'short' })} ${at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`;
}

/** "09:41", or "Mon 09:41" when not today: times a person reads at a glance. */
export function shortTime(iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  const time = at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return at.toDateString() === now.toDateString() ? time : `${at.toLocaleDateString([], { weekday: 'short' })} ${time}`;
}
