import {
  type CheckinConfigAnswer,
  type KioskPersonAnswer,
  type Open,
  type PersonCheckinAnswer,
  type VehicleCheckinAnswer,
  isKnown,
} from '../../../shared/src/client';
import { vehicleStatuses } from '../../../shared/src/domain';
import { type Source, sources } from '../../../shared/src/schemas/common';
import { type ConfigField, fieldTypes } from '../../../shared/src/schemas/sites';
import type { VehicleCheckin } from '../../../shared/src/schemas/vehicles';
import type { KeptPersonCheckin, KioskCheckinForm } from '../data/types';

// The server's answers as the kiosk keeps them: a newer server may send enum values this kiosk does not know
// (docs/kiosk-sync.md, Newer servers). The one it keeps is a person's status (KeptPersonStatus), because a
// person must never drop off the Roll call.

/** A check-in the kiosk keeps, or the status (newer than this kiosk) for which it keeps none. */
export type Reading<C> = { kept: true; checkin: C } | { kept: false; status: string };

/**
 * The kiosk stores and shows no source, but its data layer takes the shared resource, whose source is
 * closed: a newer source reads as OTHER, the API's own "none of the named ones".
 */
const kioskSource = (source: Open<Source>): Source => (isKnown(sources, source) ? source : 'OTHER');

/** An entry or exit as the kiosk's data layer takes it. */
const kioskEvent = (event: { source: Open<Source>; at: string }) => ({
  at: event.at,
  source: kioskSource(event.source),
});

/**
 * A person check-in from the server, always kept, a newer status as text: the Roll call (the evacuation
 * list) must show them. No action is offered or replayed on such a status (personCommands.ts, projection.ts).
 */
export function readPerson(answer: PersonCheckinAnswer): Reading<KeptPersonCheckin> {
  return {
    kept: true,
    checkin: { ...answer, entry: kioskEvent(answer.entry), exit: answer.exit && kioskEvent(answer.exit) },
  };
}

/**
 * A person visit from the kiosk's own list (`/kiosk/people`), kept like a whole check-in: what the server
 * does not tell a kiosk (email, phone, host, purpose, custom fields, labels, decisions, language) is kept as unknown,
 * null or empty. A visit this kiosk created keeps what it was given: a pull never rewrites a visit's person.
 */
export function readKioskPerson(answer: KioskPersonAnswer): Reading<KeptPersonCheckin> {
  return { kept: true, checkin: keptKioskPerson(answer) };
}

/** The same, as the check-in kept (a person visit is always kept). */
export function keptKioskPerson(answer: KioskPersonAnswer): KeptPersonCheckin {
  return {
    ...answer,
    person: { ...answer.person, email: null, phone: null },
    hostName: null,
    hostId: null,
    language: null,
    purpose: null,
    customFields: {},
    labelIds: [],
    denyReason: null,
    pendingReason: null,
    invitationId: null,
    decidedBy: null,
    decidedAt: null,
    entry: kioskEvent(answer.entry),
    exit: answer.exit && kioskEvent(answer.exit),
  };
}

/**
 * A vehicle check-in from the server. A status newer than this kiosk cannot be shown with the right
 * actions at the gate, so such a visit is not kept (the caller says what becomes of it).
 */
export function readVehicle(answer: VehicleCheckinAnswer): Reading<VehicleCheckin> {
  const { status } = answer;
  if (!isKnown(vehicleStatuses, status)) return { kept: false, status };
  return {
    kept: true,
    checkin: { ...answer, status, entry: kioskEvent(answer.entry), exit: answer.exit && kioskEvent(answer.exit) },
  };
}

export interface KioskCheckinConfig {
  config: KioskCheckinForm;
  /** False when a field of a type newer than this kiosk was shown as text or left out. */
  complete: boolean;
}

/**
 * The check-in form's configuration. A field of a type newer than this kiosk is shown as plain text when
 * required (else no check-in could succeed; the server checks the value) and left out when optional.
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
  return {
    config: { siteId: answer.siteId, version: answer.version, requiresApproval: answer.requiresApproval, fields },
    complete,
  };
}
