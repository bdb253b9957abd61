import { z } from 'zod';
import { Actor } from './staff';
import { plateProblem } from '../domain/plate';
import { vehicleStatuses } from '../domain/vehicleCheckin';
import {
  BodyCursor,
  Id,
  IntId,
  Instant,
  Limit,
  PageQuery,
  overlapInOrder,
  Source,
  Text,
  Timestamp,
  commaList,
} from './common';
import { Color } from './labels';

/** A plate as entered (trimmed; returned so), valid once normalized (docs/api.md, License plates), else 422 / 400 in a query. */
export const LicensePlate = z
  .string()
  .trim()
  .max(64)
  .superRefine((plate, ctx) => {
    const message = plateProblem(plate);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

/** Optional free text of a vehicle or a visit; empty is stored as null. */
const Note = (max: number) => z.string().trim().max(max);

const LabelIds = z.array(Id).max(50);

// Vehicle labels: a table apart from person labels; `blocksEntry` stops a vehicle at the gate.

export const VehicleLabel = z.object({
  labelId: Id,
  name: z.string(),
  color: z.string().nullable(),
  blocksEntry: z.boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type VehicleLabel = z.infer<typeof VehicleLabel>;

export const CreateVehicleLabelRequest = z.strictObject({
  name: Text(64),
  color: Color.optional(),
  blocksEntry: z.boolean().optional(),
});
export const UpdateVehicleLabelRequest = z.strictObject({
  name: Text(64).optional(),
  color: Color.nullable().optional(),
  blocksEntry: z.boolean().optional(),
});
export type CreateVehicleLabelRequest = z.infer<typeof CreateVehicleLabelRequest>;
export type UpdateVehicleLabelRequest = z.infer<typeof UpdateVehicleLabelRequest>;

// Vehicle profiles.

export const Vehicle = z.object({
  vehicleId: Id,
  licensePlate: z.string(),
  make: z.string().nullable(),
  model: z.string().nullable(),
  color: z.string().nullable(),
  description: z.string().nullable(),
  labelIds: z.array(Id),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Vehicle = z.infer<typeof Vehicle>;

export const CreateVehicleRequest = z.strictObject({
  licensePlate: LicensePlate,
  make: Note(100).optional(),
  model: Note(100).optional(),
  color: Note(50).optional(),
  description: Note(1000).optional(),
  labelIds: LabelIds.optional(),
});
export type CreateVehicleRequest = z.infer<typeof CreateVehicleRequest>;

/** `PUT /profiles/vehicles/{id}`: only the fields sent change; `null` clears an optional one. */
export const UpdateVehicleRequest = z.strictObject({
  licensePlate: LicensePlate.optional(),
  make: Note(100).nullable().optional(),
  model: Note(100).nullable().optional(),
  color: Note(50).nullable().optional(),
  description: Note(1000).nullable().optional(),
  labelIds: LabelIds.nullable().optional(),
});
export type UpdateVehicleRequest = z.infer<typeof UpdateVehicleRequest>;

export const VehicleLabelsRequest = z.strictObject({ labelIds: LabelIds });

export const VehicleListQuery = PageQuery.extend({
  licensePlate: LicensePlate.optional(),
  labelId: z.coerce.number().pipe(IntId).optional(),
});

// Vehicle check-ins (visits).

export const VehicleStatus = z.enum(vehicleStatuses);

export const VehicleCheckin = z.object({
  checkinId: Id,
  siteId: Id,
  vehicleId: Id.nullable(),
  licensePlate: z.string(),
  status: VehicleStatus,
  driverName: z.string().nullable(),
  notes: z.string().nullable(),
  entry: z.object({ source: Source, at: Timestamp }),
  exit: z.object({ source: Source, at: Timestamp }).nullable(),
  denyReason: z.string().nullable(),
  /** Why a STOP stops, in words for the guard: the blocking labels, or the deny's reason; null otherwise. */
  stopReason: z.string().nullable(),
  /** Who approved, denied, or (with a session) entered or checked out this check-in, and when. */
  decidedBy: Actor.nullable(),
  decidedAt: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type VehicleCheckin = z.infer<typeof VehicleCheckin>;

/** `{vehicleId} | {licensePlate}`, exactly one, plus the visit's own fields. */
export const CreateVehicleCheckinRequest = z
  .strictObject({
    vehicleId: Id.optional(),
    licensePlate: LicensePlate.optional(),
    driverName: Note(200).optional(),
    notes: Note(1000).optional(),
    occurredAt: Instant.optional(),
  })
  .refine((body) => (body.vehicleId === undefined) !== (body.licensePlate === undefined), {
    message: 'Send exactly one of vehicleId and licensePlate',
  });
export type CreateVehicleCheckinRequest = z.infer<typeof CreateVehicleCheckinRequest>;

export const VehicleCheckinListQuery = PageQuery.extend({
  status: commaList(vehicleStatuses).optional(),
  licensePlate: LicensePlate.optional(),
});

/** `POST /checkins/vehicles/search`: by plate, the open visit comes first. */
export const VehicleCheckinsSearchRequest = z
  .strictObject({
    siteIds: z.array(Id).max(500).optional(),
    licensePlate: LicensePlate.optional(),
    status: z.array(VehicleStatus).optional(),
    from: Instant.optional(),
    to: Instant.optional(),
    overlapsFrom: Instant.optional(),
    overlapsTo: Instant.optional(),
    limit: Limit.optional(),
    cursor: BodyCursor.optional(),
  })
  .refine((body) => !body.from || !body.to || Date.parse(body.from) <= Date.parse(body.to), {
    path: ['to'],
    message: 'to must not be before from',
  })
  .refine(overlapInOrder, { path: ['overlapsTo'], message: 'overlapsTo must not be before overlapsFrom' });
export type VehicleCheckinsSearchRequest = z.infer<typeof VehicleCheckinsSearchRequest>;

// The change feed of registered vehicles and vehicle labels, for kiosks that keep a local copy (docs/api.md).

export const MAX_VEHICLE_CHANGES = 5000;
export const DEFAULT_VEHICLE_CHANGES = 2000;

/** `GET /profiles/vehicles/changes`: the changes after `cursor` (from the beginning without one). */
export const VehicleChangesQuery = z.strictObject({
  cursor: z.string().min(1).max(512).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_VEHICLE_CHANGES).default(DEFAULT_VEHICLE_CHANGES),
});

/** A registered vehicle as a kiosk keeps it: what the gate shows and decides by. */
export const VehicleDirectoryEntry = z.object({
  vehicleId: Id,
  licensePlate: z.string(),
  /** The plate in its compared form (normalizePlate). */
  plateKey: z.string(),
  make: z.string().nullable(),
  model: z.string().nullable(),
  color: z.string().nullable(),
  labelIds: z.array(Id),
});
export type VehicleDirectoryEntry = z.infer<typeof VehicleDirectoryEntry>;

export const VehicleDirectoryLabel = z.object({ labelId: Id, name: z.string(), blocksEntry: z.boolean() });
export type VehicleDirectoryLabel = z.infer<typeof VehicleDirectoryLabel>;

/** One page of changes: apply in order, keep `nextCursor`, and ask again at once while `hasMore`. */
export const VehicleChanges = z.object({
  vehicles: z.array(VehicleDirectoryEntry),
  labels: z.array(VehicleDirectoryLabel),
  removedVehicleIds: z.array(Id),
  removedLabelIds: z.array(Id),
  nextCursor: z.string(),
  hasMore: z.boolean(),
});
export type VehicleChanges = z.infer<typeof VehicleChanges>;
