import {
  type CheckinConfigAnswer,
  type Open,
  type PersonCheckinAnswer,
  type VehicleCheckinAnswer,
  isKnown,
} from '../../../shared/src/client';
import { vehicleStatuses } from '../../../shared/src/domain';
import { type Source, sources } from '../../../shared/src/schemas/common';
import { type CheckinConfig, type ConfigField, fieldTypes } from '../../../shared/src/schemas/sites';
import type { VehicleCheckin } from '../../../shared/src/schemas/vehicles';
import type { KeptPersonCheckin } from '../data/types';

// The server's answers as the kiosk keeps them. A server upgraded before its kiosks may answer with enum
// values this kiosk does not know (v1 grows by adding them, CONTRACT §1); this file decides, per field,
// what the kiosk does with them. The one newer value the rest of the kiosk holds is a person's status
// (KeptPersonStatus), because a person must never drop off the Roll call.

/** A check-in the kiosk keeps, or the status (newer than this kiosk) for which it keeps none. */
export type Reading<C> = { kept: true; checkin: C } | { kept: false; status: string };

/**
 * The kiosk stores and shows no source, but its data layer takes the shared resource, whose source is
 * closed: a newer source reads as OTHER, the contract's own "none of the named ones". (An integrator
 * using the client gets the source as it came.)
 */
const kioskSource = (source: Open<Source>): Source => (isKnown(sources, source) ? source : 'OTHER');

/** An entry or exit as the kiosk's data layer takes it. */
const kioskEvent = (event: { source: Open<Source>; at: string }) => ({ at: event.at, source: kioskSource(event.source) });

/**
 * A person check-in from the server, always kept: one in a status newer than this kiosk keeps that status
 * as text. The person is on site, and the Roll call (the evacuation list) must show them; the kiosk offers
 * no action on a status it does not know (personCommands.ts) and replays none over it (projection.ts), so
 * queued actions go to the server, which decides them. A newer source does not matter to the kiosk.
 */
export function readPerson(answer: PersonCheckinAnswer): Reading<KeptPersonCheckin> {
  return { kept: true, checkin: { ...answer, entry: kioskEvent(answer.entry), exit: answer.exit && kioskEvent(answer.exit) } };
}

/**
 * A vehicle check-in from the server. A status newer than this kiosk cannot be shown with the right
 * actions at the gate, so such a visit is not kept (the caller says what becomes of it).
 */
export function readVehicle(answer: VehicleCheckinAnswer): Reading<VehicleCheckin> {
  const { status } = answer;
  if (!isKnown(vehicleStatuses, status)) return { kept: false, status };
  return { kept: true, checkin: { ...answer, status, entry: kioskEvent(answer.entry), exit: answer.exit && kioskEvent(answer.exit) } };
}

export interface KioskCheckinConfig {
  config: CheckinConfig;
  /** False when a field of a type newer than this kiosk was shown as text or left out. */
  complete: boolean;
}

/**
 * The check-in form's configuration. A field of a type newer than this kiosk is shown as a plain text
 * field when it is required (without it no check-in could succeed; the server checks the value, and one
 * it refuses shows in Needs attention) and left out when it is optional (better no answer than one typed
 * into the wrong kind of input). The rest of the form works as configured.
 */
export function readCheckinConfig(answer: CheckinConfigAnswer): KioskCheckinConfig {
  const fields: ConfigField[] = [];
  let complete = true;
  for (const field of answer.fields) {
    const { type } = field;
    if (isKnown(fieldTypes, type)) {
      fields.push({ ...field, type });
      continue;
    }
    complete = false;
    if (field.required) fields.push({ name: field.name, label: field.label, type: 'text', required: true });
  }
  return { config: { siteId: answer.siteId, requiresApproval: answer.requiresApproval, fields }, complete };
}
