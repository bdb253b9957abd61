import type { z } from 'zod';
import * as admin from '../../../shared/src/schemas/admin';
import * as people from '../../../shared/src/schemas/personCheckins';
import * as sites from '../../../shared/src/schemas/sites';
import * as staff from '../../../shared/src/schemas/staff';
import * as vehicles from '../../../shared/src/schemas/vehicles';
import * as watchlist from '../../../shared/src/schemas/watchlist';
import * as tokens from '../../../shared/src/schemas/tokens';
import * as webhooks from '../../../shared/src/schemas/webhooks';

type JsonObject = Record<string, unknown>;
type Refinement = (json: JsonObject, io: 'input' | 'output') => void;

/** Separators, then 1–16 letters or digits each followed by separators (docs/api.md, License plates). */
const PLATE_PATTERN = '^[\\s\\-.·]*(?:[\\p{L}\\p{Nd}][\\s\\-.·]*){1,16}$';

/** `required` with each name declared too (any value: the object's own properties say what each holds). */
const requires = (...names: string[]) => ({
  required: names,
  properties: Object.fromEntries(names.map((name) => [name, {}])),
});

/** A config field a site must keep: `firstName` or `lastName` as a required text field. */
const keptField = (name: string) => ({
  contains: {
    type: 'object',
    properties: { name: { const: name }, type: { const: 'text' }, required: { const: true } },
    required: ['name', 'type', 'required'],
  },
});

/**
 * The zod refinements JSON Schema can express, written as JSON Schema (a refinement is code, which zod
 * cannot convert). Rules it cannot express are in the operation's description.
 */
const refinements = new Map<z.ZodType, Refinement>([
  // The site's configuration always requires both names (docs/api.md, Site configuration).
  [people.Person, (json, io) => io === 'input' && Object.assign(json, { required: ['firstName', 'lastName'] })],
  [
    vehicles.CreateVehicleCheckinRequest,
    (json) => Object.assign(json, { oneOf: [requires('vehicleId'), requires('licensePlate')] }),
  ],
  [
    watchlist.CreateWatchlistEntryRequest,
    (json) => Object.assign(json, { anyOf: [requires('email'), requires('phone'), requires('firstName', 'lastName')] }),
  ],
  [
    admin.CreateTokenRequest,
    (json) =>
      Object.assign(json, {
        oneOf: [
          { required: ['siteIds'], properties: { siteIds: {}, allSites: { const: false } } },
          { required: ['allSites'], properties: { allSites: { const: true } }, not: requires('siteIds') },
        ],
      }),
  ],
  [
    tokens.CreateApiTokenRequest,
    (json) =>
      Object.assign(json, {
        oneOf: [
          { required: ['siteIds'], properties: { siteIds: {}, allSites: { const: false } } },
          { required: ['allSites'], properties: { allSites: { const: true } }, not: requires('siteIds') },
        ],
      }),
  ],
  [
    admin.UpdateTokenRequest,
    (json) =>
      Object.assign(json, {
        not: { required: ['allSites', 'siteIds'], properties: { siteIds: {}, allSites: { const: true } } },
      }),
  ],
  [vehicles.LicensePlate, (json) => Object.assign(json, { pattern: PLATE_PATTERN })],
  // A query value read as a number, then checked as a label id.
  [
    vehicles.VehicleListQuery.shape.labelId.unwrap(),
    (json) => Object.assign(json, { type: 'integer', minimum: 1, maximum: 2_147_483_647 }),
  ],
  // Trimmed, then an address: one @, a dot after it, no spaces inside (zod's own check is stricter still).
  [
    staff.Email,
    (json, io) => io === 'input' && Object.assign(json, { pattern: '^\\s*[^\\s@]+@[^\\s@]+\\.[^\\s@]+\\s*$' }),
  ],
  [webhooks.WebhookUrl, (json) => Object.assign(json, { pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' })],
  [
    sites.CheckinConfigUpdate,
    (json) => {
      const fields = (json.properties as Record<string, JsonObject>).fields;
      if (fields) Object.assign(fields, { allOf: [keptField('firstName'), keptField('lastName')] });
    },
  ],
  [
    sites.ConfigField,
    (json, io) =>
      io === 'input' &&
      Object.assign(json, {
        if: { properties: { type: { const: 'select' } } },
        then: { required: ['options'], properties: { options: { minItems: 1 } } },
        else: { not: requires('options') },
      }),
  ],
]);

/** The JSON Schema a zod schema's refinements add, if any. */
export const refinementOf = (schema: z.ZodType): Refinement | undefined => refinements.get(schema);
