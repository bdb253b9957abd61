import { applyRule, type Transition, type TransitionRule } from './transition';

/** Every status a vehicle check-in can have (docs/api.md, Vehicle check-ins); vehicles take no breaks. */
export const vehicleStatuses = ['IN', 'PENDING', 'STOP', 'OUT'] as const;
/** The status of a vehicle check-in. */
export type VehicleStatus = (typeof vehicleStatuses)[number];

/** What the transition needs to know about a vehicle check-in. */
export interface VehicleCheckinState {
  status: VehicleStatus;
  lastEventAt: Date;
}

/** A request that changes a vehicle check-in; `occurredAt` is the claimed time (an offline kiosk's clock). */
export type VehicleEvent =
  | { type: 'CHECKOUT'; occurredAt?: Date }
  | { type: 'APPROVE'; occurredAt?: Date }
  | { type: 'DENY'; occurredAt?: Date };

/** The webhook event kinds a vehicle check-in emits (docs/webhooks.md, Event kinds). */
export type VehicleWebhookEvent =
  'VEHICLE_CHECKIN_ENTERED' | 'VEHICLE_CHECKIN_EXITED' | 'VEHICLE_CHECKIN_PENDING' | 'VEHICLE_CHECKIN_STOPPED';

/** What the caller must do to persist an accepted transition, in order. */
export type VehicleEffect = { type: 'SET_EXIT'; at: Date } | { type: 'EMIT'; event: VehicleWebhookEvent };

type Rule = TransitionRule<VehicleStatus, VehicleEffect>;

const emit = (event: VehicleWebhookEvent): VehicleEffect => ({ type: 'EMIT', event });
const notPending: Rule = { reject: 'NOT_PENDING' };
const checkout: Rule = {
  to: 'OUT',
  effects: (at) => [{ type: 'SET_EXIT', at }, emit('VEHICLE_CHECKIN_EXITED')],
};

const vehicleTable: Record<VehicleEvent['type'], Record<VehicleStatus, Rule>> = {
  CHECKOUT: { IN: checkout, PENDING: checkout, STOP: checkout, OUT: { reject: 'CHECKIN_CLOSED' } },
  APPROVE: {
    IN: notPending,
    PENDING: { to: 'IN', effects: () => [emit('VEHICLE_CHECKIN_ENTERED')] },
    STOP: notPending,
    OUT: notPending,
  },
  DENY: {
    IN: notPending,
    PENDING: { to: 'STOP', effects: () => [emit('VEHICLE_CHECKIN_STOPPED')] },
    STOP: notPending,
    OUT: notPending,
  },
};

const statusEvents: Record<VehicleStatus, VehicleWebhookEvent> = {
  IN: 'VEHICLE_CHECKIN_ENTERED',
  PENDING: 'VEHICLE_CHECKIN_PENDING',
  STOP: 'VEHICLE_CHECKIN_STOPPED',
  OUT: 'VEHICLE_CHECKIN_EXITED',
};

/** What an Entry is decided as: its status, and for STOP why, in words a guard reads on the gate's card. */
export interface VehicleEntryDecision {
  status: 'IN' | 'PENDING' | 'STOP';
  stopReason: string | null;
}

/**
 * The rule for an Entry, the same on the server (which decides) and the gate (which predicts offline): a
 * blocking label stops the vehicle and names the labels; a registered one enters; an unknown plate waits.
 */
export function decideVehicleEntry(input: {
  registered: boolean;
  blockingLabelNames: readonly string[];
}): VehicleEntryDecision {
  if (input.blockingLabelNames.length > 0) {
    return { status: 'STOP', stopReason: `Blocked by label: ${[...input.blockingLabelNames].sort().join(', ')}` };
  }
  return { status: input.registered ? 'IN' : 'PENDING', stopReason: null };
}

/** The stop reason a deny records: the reason given, or "Refused" when none was. */
export function deniedStopReason(reason: string | null | undefined): string {
  const given = reason?.trim();
  return given ? given : 'Refused';
}

/** The webhook event kind that entering a status emits. */
export function vehicleStatusEvent(status: VehicleStatus): VehicleWebhookEvent {
  return statusEvents[status];
}

/** True for the states that count as "open visit" (IN or PENDING): one per plate per site. */
export function isOpenVehicleStatus(status: VehicleStatus): boolean {
  return status === 'IN' || status === 'PENDING';
}

/** Decides one event on a vehicle check-in: the next state and effects, or a typed rejection. Pure. */
export function transitionVehicle(
  state: VehicleCheckinState,
  event: VehicleEvent,
  now: Date,
): Transition<VehicleCheckinState, VehicleEffect> {
  return applyRule(vehicleTable[event.type][state.status], state.lastEventAt, event.occurredAt, now);
}
