import { z } from 'zod';
import { normalizePlate } from '../../../../shared/src/domain';
import { Id, page } from '../../../../shared/src/schemas/common';
import {
  CreateVehicleRequest,
  UpdateVehicleRequest,
  Vehicle,
  VehicleChanges,
  VehicleCheckin,
  VehicleChangesQuery,
  VehicleLabelsRequest,
  VehicleListQuery,
} from '../../../../shared/src/schemas/vehicles';
import { createVehicle } from '../../commands/vehicleCreator';
import { deleteVehicle, updateVehicle } from '../../commands/vehicleUpdater';
import { findVehicle } from '../../db/vehicleRows';
import { notFound } from '../../errors/problem';
import { presentVehicle } from '../../presenters/vehicle';
import { readVehicleChanges } from '../../queries/vehicleChanges';
import { listVehicles } from '../../queries/vehicleList';
import { type HandlerContext, type Reply, defineRoute } from '../define';
import { auditParam, auditReply } from '../../audit/targets';
import { pageOf, vehicleExample } from '../examples';

const tag = 'Vehicles';
const base = '/profiles/vehicles';
const VehicleParams = z.object({ vehicleId: Id });

/** Both PUTs (the vehicle, or only its labels): the fields sent change, and the vehicle is answered. */
const update = async (ctx: HandlerContext<{ vehicleId: number }, undefined, UpdateVehicleRequest>): Promise<Reply> => ({
  status: 200,
  body: await updateVehicle(ctx.db, {
    principal: ctx.principal,
    vehicleId: ctx.params.vehicleId,
    request: ctx.body,
    now: ctx.now,
  }),
});

export const vehicleRoutes = [
  defineRoute({
    method: 'POST',
    path: base,
    summary: 'Register a vehicle (its plate is unique in the account)',
    description:
      'Registers a vehicle of the account. Plates are compared normalized (upper case, without spaces, `-`, `.` and `·`) and are unique in the account: 1–16 letters or digits once normalized. `labelIds` must name vehicle labels of the account (else 422).',
    examples: {
      request: {
        licensePlate: 'B-GH 1234',
        make: 'Volkswagen',
        model: 'Caddy',
        color: 'white',
        description: 'Maintenance van',
        labelIds: [4],
      },
      response: vehicleExample,
    },
    conflict: { codes: ['LICENSE_PLATE_TAKEN: a vehicle of the account has this plate'], current: Vehicle },
    tag,
    auth: 'token',
    scope: 'vehicles:write',
    body: CreateVehicleRequest,
    responses: { 201: Vehicle },
    audit: auditReply('vehicle.created', 'vehicle', 'vehicleId'),
    handler: async ({ db, principal, body, now }) => ({
      status: 201,
      body: await createVehicle(db, { accountId: principal.accountId, request: body, now }),
    }),
  }),
  defineRoute({
    method: 'GET',
    path: base,
    summary: 'List vehicles, newest first, by plate or label',
    description:
      'The vehicles of the account, newest first; `licensePlate` finds a plate (compared normalized), `labelId` the vehicles carrying a label.',
    examples: { query: { licensePlate: 'bgh1234' }, response: pageOf(vehicleExample) },
    tag,
    auth: 'token',
    scope: 'vehicles:read',
    query: VehicleListQuery,
    responses: { 200: page(Vehicle) },
    handler: async ({ db, principal, query }) => ({
      status: 200,
      body: await listVehicles(db, {
        accountId: principal.accountId,
        plateNorm: query.licensePlate === undefined ? undefined : normalizePlate(query.licensePlate),
        labelId: query.labelId,
        limit: query.limit,
        cursor: query.cursor,
      }),
    }),
  }),
  // Before `/:vehicleId`, which would take "changes" for an id.
  defineRoute({
    method: 'GET',
    path: `${base}/changes`,
    summary: "The account's vehicle and vehicle label changes after a cursor, for a kiosk's local copy",
    description:
      "The registered vehicles and vehicle labels changed after `cursor` (everything, without one), and the ids removed, for a kiosk's local copy. Apply a page in order, keep `nextCursor`, and ask again at once while `hasMore`.",
    examples: {
      response: {
        vehicles: [
          {
            vehicleId: 12,
            licensePlate: 'B-GH 1234',
            plateKey: 'BGH1234',
            make: 'Volkswagen',
            model: 'Caddy',
            color: 'white',
            labelIds: [4],
          },
        ],
        labels: [{ labelId: 4, name: 'Fleet', blocksEntry: false }],
        removedVehicleIds: [],
        removedLabelIds: [],
        nextCursor: 'eyJ2IjoxMn0',
        hasMore: false,
      },
    },
    tag,
    auth: 'token',
    scope: ['vehicles:read', 'kiosk:gate'],
    query: VehicleChangesQuery,
    responses: { 200: VehicleChanges },
    handler: async ({ db, principal, query }) => ({
      status: 200,
      body: await readVehicleChanges(db, { accountId: principal.accountId, cursor: query.cursor, limit: query.limit }),
    }),
  }),
  defineRoute({
    method: 'GET',
    path: `${base}/:vehicleId`,
    summary: 'Read a vehicle',
    description: 'One registered vehicle of the account.',
    examples: { response: vehicleExample },
    tag,
    auth: 'token',
    scope: 'vehicles:read',
    params: VehicleParams,
    responses: { 200: Vehicle },
    handler: async ({ db, principal, params }) => {
      const row = await findVehicle(db, principal.accountId, params.vehicleId);
      if (!row) throw notFound(`Vehicle ${params.vehicleId} does not exist.`);
      return { status: 200, body: presentVehicle(row) };
    },
  }),
  defineRoute({
    method: 'PUT',
    path: `${base}/:vehicleId`,
    summary: 'Update a vehicle: only the fields sent change, null clears one',
    description:
      'Changes only the fields sent; `null` clears an optional field. A new plate must be free in the account, and a vehicle on site keeps its plate until it leaves. `labelIds` must name vehicle labels of the account (else 422).',
    examples: {
      request: { color: 'silver', description: null },
      response: { ...vehicleExample, color: 'silver', description: null },
    },
    conflict: {
      codes: [
        'LICENSE_PLATE_TAKEN: another vehicle has the new plate (`current`: that vehicle)',
        'VEHICLE_ALREADY_ON_SITE: the vehicle is on site, so its plate cannot change (`current`: its visit, when the token can view that site)',
      ],
      current: [Vehicle, VehicleCheckin],
    },
    tag,
    auth: 'token',
    scope: 'vehicles:write',
    params: VehicleParams,
    body: UpdateVehicleRequest,
    responses: { 200: Vehicle },
    audit: auditReply('vehicle.updated', 'vehicle', 'vehicleId'),
    handler: update,
  }),
  defineRoute({
    method: 'PUT',
    path: `${base}/:vehicleId/labels`,
    summary: "Replace a vehicle's labels",
    description:
      "Replaces the vehicle's labels with those listed (an empty list takes them all off). Each must be a vehicle label of the account (else 422).",
    examples: { request: { labelIds: [4] }, response: vehicleExample },
    tag,
    auth: 'token',
    scope: 'vehicles:write',
    params: VehicleParams,
    body: VehicleLabelsRequest,
    responses: { 200: Vehicle },
    audit: auditReply('vehicle.labels_set', 'vehicle', 'vehicleId'),
    handler: update,
  }),
  defineRoute({
    method: 'DELETE',
    path: `${base}/:vehicleId`,
    summary: 'Delete a vehicle (its past visits keep their plate)',
    description:
      'Deletes the registered vehicle; its past visits keep their plate. A deleted vehicle is a 404 afterwards.',
    examples: { response: null },
    tag,
    auth: 'token',
    scope: 'vehicles:write',
    params: VehicleParams,
    responses: { 204: null },
    audit: auditParam('vehicle.deleted', 'vehicle', 'vehicleId'),
    handler: async ({ db, principal, params, now }) => {
      await deleteVehicle(db, { accountId: principal.accountId, vehicleId: params.vehicleId, now });
      return { status: 204 };
    },
  }),
];
