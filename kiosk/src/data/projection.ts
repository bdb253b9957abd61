import { isKnown } from '../../../shared/src/client/answers';
import {
  type PersonEvent,
  type VehicleEvent,
  type VehicleStatus,
  deniedStopReason,
  personStatuses,
  transitionPerson,
  transitionVehicle,
} from '../../../shared/src/domain';
import type { VehicleCheckin } from '../../../shared/src/schemas/vehicles';
import type {
  ConfirmedPerson,
  ConfirmedVehicle,
  KeptPersonCheckin,
  KeptPersonStatus,
  LocalBreak,
  OutboxAction,
  PersonVisit,
  VehicleVisit,
} from './types';

/** The display fields of a person visit, derived by this file and nothing else. */
export type PersonView = Pick<PersonVisit, 'status' | 'entryAt' | 'exitAt' | 'breaks' | 'lastEventAt'>;
export type VehicleView = Pick<VehicleVisit, 'status' | 'entryAt' | 'exitAt' | 'lastEventAt'> & {
  stopReason: string | null;
};

const latest = (times: Array<string | null>): string =>
  times
    .filter((time): time is string => time !== null)
    .reduce((max, time) => (Date.parse(time) > Date.parse(max) ? time : max));

/** The person-visit fields the kiosk keeps from a server answer. */
export function confirmPerson(checkin: KeptPersonCheckin): ConfirmedPerson {
  return {
    status: checkin.status,
    entryAt: checkin.entry.at,
    exitAt: checkin.exit?.at ?? null,
    breaks: checkin.breaks.map((item) => ({ startedAt: item.startedAt, endedAt: item.endedAt })),
    updatedAt: checkin.updatedAt,
    badgeCode: checkin.badgeCode,
  };
}

export function confirmVehicle(checkin: VehicleCheckin): ConfirmedVehicle {
  return {
    status: checkin.status,
    entryAt: checkin.entry.at,
    exitAt: checkin.exit?.at ?? null,
    stopReason: checkin.stopReason,
    updatedAt: checkin.updatedAt,
  };
}

/** A server answer replaces what we hold only if it is not older (a replayed answer is the original one). */
export const isNewer = (incoming: { updatedAt: string }, held: { updatedAt: string } | null): boolean =>
  held === null || Date.parse(incoming.updatedAt) >= Date.parse(held.updatedAt);

const personEvents: Partial<Record<OutboxAction['kind'], PersonEvent['type']>> = {
  PERSON_BREAK_START: 'BREAK_START',
  PERSON_BREAK_END: 'BREAK_END',
  PERSON_CHECKOUT: 'CHECKOUT',
};

/**
 * Replays the visit's unacknowledged actions (in `seq` order) over the server's last word with the shared
 * state machine, exactly as the server will apply them. An action the machine refuses here changes
 * nothing: the server will refuse it too, and it will show up in Needs attention. Over a status newer than
 * this kiosk the machine cannot decide anything: the visit shows the server's status until the server has
 * decided the queued actions.
 */
export function projectPerson(
  visit: Pick<PersonVisit, 'confirmed' | 'predicted' | 'entryAt'>,
  pending: OutboxAction[],
): PersonView {
  const base = visit.confirmed;
  let status: KeptPersonStatus = base?.status ?? visit.predicted;
  const entryAt = base?.entryAt ?? visit.entryAt;
  let exitAt = base?.exitAt ?? null;
  let breaks: LocalBreak[] = (base?.breaks ?? []).map((item) => ({ ...item }));
  let lastEventAt = latest([entryAt, exitAt, ...breaks.flatMap((item) => [item.startedAt, item.endedAt])]);
  for (const action of pending) {
    const type = personEvents[action.kind];
    if (type === undefined) continue;
    if (!isKnown(personStatuses, status)) break;
    // "now" = the claimed time: an action queued for days is judged as of when it happened.
    const at = new Date(action.occurredAt);
    const result = transitionPerson({ status, lastEventAt: new Date(lastEventAt) }, { type, occurredAt: at }, at);
    if (!result.ok) continue;
    status = result.state.status;
    lastEventAt = result.at.toISOString();
    for (const effect of result.effects) {
      const time = effect.type === 'EMIT' ? null : effect.at.toISOString();
      if (effect.type === 'OPEN_BREAK' && time) breaks = [...breaks, { startedAt: time, endedAt: null }];
      if (effect.type === 'CLOSE_BREAK' && time)
        breaks = breaks.map((item) => (item.endedAt === null ? { ...item, endedAt: time } : item));
      if (effect.type === 'SET_EXIT') exitAt = time;
    }
  }
  return { status, entryAt, exitAt, breaks, lastEventAt };
}

const vehicleEvents: Partial<Record<OutboxAction['kind'], VehicleEvent['type']>> = {
  VEHICLE_EXIT: 'CHECKOUT',
  VEHICLE_APPROVE: 'APPROVE',
  VEHICLE_DENY: 'DENY',
};

/** The same for a vehicle visit: its later actions are a guard's Admit or Refuse, and the exit. */
export function projectVehicle(
  visit: Pick<VehicleVisit, 'confirmed' | 'predicted' | 'predictedStopReason' | 'entryAt'>,
  pending: OutboxAction[],
): VehicleView {
  const base = visit.confirmed;
  let status: VehicleStatus = base?.status ?? visit.predicted;
  let stopReason = (base ? base.stopReason : visit.predictedStopReason) ?? null;
  const entryAt = base?.entryAt ?? visit.entryAt;
  let exitAt = base?.exitAt ?? null;
  let lastEventAt = latest([entryAt, exitAt]);
  for (const action of pending) {
    const type = vehicleEvents[action.kind];
    if (type === undefined) continue;
    const at = new Date(action.occurredAt);
    const result = transitionVehicle({ status, lastEventAt: new Date(lastEventAt) }, { type, occurredAt: at }, at);
    if (!result.ok) continue;
    status = result.state.status;
    lastEventAt = result.at.toISOString();
    if (type === 'CHECKOUT') exitAt = lastEventAt;
    if (action.kind === 'VEHICLE_DENY') stopReason = deniedStopReason(action.body.reason);
  }
  // A STOP without a reason (a server older than the reason, or a visit kept before it was) says only STOP.
  return { status, entryAt, exitAt, lastEventAt, stopReason: status === 'STOP' ? stopReason : null };
}
