import type { ApiClient, PersonCheckinAnswer, VehicleCheckinAnswer } from '../../../shared/src/client';
import type { HttpOutcome } from '../../../shared/src/client/http';
import type { OutboxAction } from '../data/types';

/** An action's answer, tagged with the kind of visit it is about. */
export type ActionOutcome =
  | { visit: 'person'; outcome: HttpOutcome<PersonCheckinAnswer> }
  | { visit: 'vehicle'; outcome: HttpOutcome<VehicleCheckinAnswer> };

const person = async (outcome: Promise<HttpOutcome<PersonCheckinAnswer>>): Promise<ActionOutcome> => ({
  visit: 'person',
  outcome: await outcome,
});
const vehicle = async (outcome: Promise<HttpOutcome<VehicleCheckinAnswer>>): Promise<ActionOutcome> => ({
  visit: 'vehicle',
  outcome: await outcome,
});

/**
 * Sends one outbox action with its own key and body. `checkinId` is the server's id of the visit, which
 * every action but a create needs (the push waits for the create before sending them).
 */
export function sendAction(
  api: ApiClient,
  action: OutboxAction,
  checkinId: number | undefined,
): Promise<ActionOutcome> {
  const { siteId, key } = action;
  if (action.kind === 'PERSON_CHECKIN') return person(api.createPersonCheckin(siteId, action.body, key));
  if (action.kind === 'VEHICLE_ENTRY') return vehicle(api.createVehicleCheckin(siteId, action.body, key));
  if (checkinId === undefined)
    throw new Error(`${action.kind} #${action.seq} sent before its visit exists on the server`);
  switch (action.kind) {
    case 'PERSON_BREAK_START':
      return person(api.personAction(siteId, checkinId, 'breaks/start', action.body, key));
    case 'PERSON_BREAK_END':
      return person(api.personAction(siteId, checkinId, 'breaks/end', action.body, key));
    case 'PERSON_CHECKOUT':
      return person(api.checkoutPerson(siteId, checkinId, action.body, key));
    case 'VEHICLE_EXIT':
      return vehicle(api.checkoutVehicle(siteId, checkinId, action.body, key));
    case 'VEHICLE_APPROVE':
      return vehicle(api.approveVehicle(siteId, checkinId, action.body, key));
    case 'VEHICLE_DENY':
      return vehicle(api.denyVehicle(siteId, checkinId, action.body, key));
  }
}
