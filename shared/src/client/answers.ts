import { z } from 'zod';
import type { PersonStatus, VehicleStatus } from '../domain';
import type { Source } from '../schemas/common';
import { languages } from '../messages/languages';
import { KioskPerson } from '../schemas/kioskPeople';
import { PeopleChanges, PersonVisitChange } from '../schemas/peopleChanges';
import { PersonCheckin } from '../schemas/personCheckins';
import { CheckinConfig, ConfigField } from '../schemas/sites';
import { Actor } from '../schemas/staff';
import { VehicleCheckin } from '../schemas/vehicles';

// The answers as this client reads them: v1 grows by adding fields and enum values (docs/api.md, Basics), so a
// newer server may send values the shared schemas (closed: the server validates with them) do not list. These
// readings keep an unknown enum value as text and drop unknown fields; everything else is checked as before.

/** A value of one of v1's enums as an answer carries it: one this client knows, or a newer one, as text. */
export type Open<Known extends string> = Known | (string & {});

/** Reads an enum of an answer without refusing the values a newer server added. */
const openEnum = <Known extends string>() =>
  z
    .string()
    .min(1)
    .transform((value): Open<Known> => value);

/** True when `value` is one of `known` (this client's values of the enum): narrows an open value to them. */
export function isKnown<Known extends string>(known: readonly Known[], value: string): value is Known {
  return known.some((item) => item === value);
}

const PersonEntry = PersonCheckin.shape.entry.extend({ source: openEnum<Source>() });
const VehicleEntry = VehicleCheckin.shape.entry.extend({ source: openEnum<Source>() });

// A server from before `decidedBy` sends none: nobody recorded.
const DecidedBy = Actor.nullable().default(null);
const DecidedAt = z.string().nullable().default(null);

/** A person check-in as an answer carries it: its status and sources may be newer than this client. */
export const PersonCheckinAnswer = PersonCheckin.extend({
  status: openEnum<PersonStatus>(),
  entry: PersonEntry,
  exit: PersonEntry.nullable(),
  decidedBy: DecidedBy,
  decidedAt: DecidedAt,
  // A server from before badges sends none: the visit has no badge to scan.
  badgeCode: z.string().nullable().default(null),
  // A server from before hosts sends none: no host.
  hostId: z.number().int().nullable().default(null),
  // A server from before invitations sends neither: no pass, no reason to wait beyond the usual.
  invitationId: z.number().int().nullable().default(null),
  pendingReason: z.string().nullable().default(null),
  // A server from before languages sends none, and one may be newer than this client: none it knows.
  language: z.enum(languages).nullable().catch(null).default(null),
});
export type PersonCheckinAnswer = z.infer<typeof PersonCheckinAnswer>;

/** A visitor kiosk's reading of a person visit (`/kiosk/people`): its status and sources may be newer too. */
export const KioskPersonAnswer = KioskPerson.extend({
  status: openEnum<PersonStatus>(),
  entry: PersonEntry,
  exit: PersonEntry.nullable(),
  // A server from before badges sends none: the visit has no badge to scan.
  badgeCode: z.string().nullable().default(null),
});
export type KioskPersonAnswer = z.infer<typeof KioskPersonAnswer>;

/** A page of the people change feed as a visitor kiosk reads it: statuses and sources may be newer too. */
export const PeopleChangesAnswer = PeopleChanges.extend({
  data: z.array(
    PersonVisitChange.extend({
      status: openEnum<PersonStatus>(),
      entry: PersonEntry,
      exit: PersonEntry.nullable(),
      // Read as `/kiosk/people` is: a visit without one has no badge to scan.
      badgeCode: z.string().nullable().default(null),
    }),
  ),
});
export type PeopleChangesAnswer = z.infer<typeof PeopleChangesAnswer>;
export type PersonVisitChangeAnswer = PeopleChangesAnswer['data'][number];

/** A vehicle check-in as an answer carries it: its status and sources may be newer than this client. */
export const VehicleCheckinAnswer = VehicleCheckin.extend({
  status: openEnum<VehicleStatus>(),
  entry: VehicleEntry,
  exit: VehicleEntry.nullable(),
  // A server from before `stopReason` sends none: no reason to show.
  stopReason: z.string().nullable().default(null),
  decidedBy: DecidedBy,
  decidedAt: DecidedAt,
});
export type VehicleCheckinAnswer = z.infer<typeof VehicleCheckinAnswer>;

/**
 * A configured check-in field as an answer carries it: its `type` may be newer than this client, and
 * properties a newer server added to fields are dropped (the shared `ConfigField` refuses them: it
 * validates what integrators send).
 */
export const ConfigFieldAnswer = z.object({ ...ConfigField.shape, type: openEnum<ConfigField['type']>() });
export type ConfigFieldAnswer = z.infer<typeof ConfigFieldAnswer>;

export const CheckinConfigAnswer = CheckinConfig.extend({
  // A server from before form versions sends none: the form cannot be named in a create (`formVersion`).
  version: CheckinConfig.shape.version.nullable().default(null),
  fields: z.array(ConfigFieldAnswer),
});
export type CheckinConfigAnswer = z.infer<typeof CheckinConfigAnswer>;
