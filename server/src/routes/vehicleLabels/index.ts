import { CreateVehicleLabelRequest, UpdateVehicleLabelRequest, VehicleLabel } from '../../../../shared/src/schemas/vehicles';
import { queryOne } from '../../db/query';
import type { VehicleLabelRow } from '../../db/vehicleRows';
import { LockNamespace } from '../../db/advisoryLocks';
import { notFound } from '../../errors/problem';
import { type LabelKind, claimLabelName } from '../../commands/labelNames';
import { presentVehicleLabel as present } from '../../presenters/vehicle';
import { listByIdRoute, readByIdRoute } from '../accountCollection';
import { defineRoute } from '../define';
import { LabelParams } from '../params';

const tag = 'Vehicle labels';
const COLUMNS = 'id, name, color, blocks_entry, created_at, updated_at';

const vehicleLabels: LabelKind<VehicleLabelRow> = {
  table: 'vehicle_labels',
  columns: COLUMNS,
  lock: LockNamespace.VEHICLE_LABEL_NAME,
  noun: 'vehicle label',
  present,
};

export const vehicleLabelRoutes = [
  defineRoute({
    method: 'POST',
    path: '/labels/vehicles',
    summary: 'Create a vehicle label (blocksEntry: vehicles carrying it are stopped at the gate)',
    tag,
    auth: 'token',
    scope: 'labels:write',
    body: CreateVehicleLabelRequest,
    responses: { 201: VehicleLabel },
    handler: async ({ db, principal, body, now }) => {
      await claimLabelName(db, vehicleLabels, principal.accountId, body.name);
      const row = await queryOne<VehicleLabelRow>(
        db,
        `INSERT INTO vehicle_labels (account_id, name, color, blocks_entry, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $5) RETURNING ${COLUMNS}`,
        [principal.accountId, body.name, body.color ?? null, body.blocksEntry ?? false, now],
      );
      if (!row) throw new Error('label insert returned nothing');
      return { status: 201, body: present(row) };
    },
  }),
  listByIdRoute(vehicleLabels, { path: '/labels/vehicles', summary: 'List vehicle labels (oldest first)', tag, scope: 'vehicles:read', item: VehicleLabel }),
  readByIdRoute(vehicleLabels, {
    path: '/labels/vehicles/:labelId', summary: 'Read a vehicle label', tag, scope: 'vehicles:read', item: VehicleLabel,
    params: LabelParams, idOf: (params) => params.labelId,
  }),
  defineRoute({
    method: 'PATCH',
    path: '/labels/vehicles/:labelId',
    summary: 'Rename, recolor or (un)block a vehicle label (null clears the color)',
    tag,
    auth: 'token',
    scope: 'labels:write',
    params: LabelParams,
    body: UpdateVehicleLabelRequest,
    responses: { 200: VehicleLabel },
    handler: async ({ db, principal, params, body, now }) => {
      if (body.name !== undefined) await claimLabelName(db, vehicleLabels, principal.accountId, body.name, params.labelId);
      const row = await queryOne<VehicleLabelRow>(
        db,
        `UPDATE vehicle_labels
         SET name = COALESCE($3, name), color = CASE WHEN $4 THEN $5 ELSE color END,
             blocks_entry = COALESCE($6, blocks_entry), updated_at = $7
         WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [principal.accountId, params.labelId, body.name ?? null, body.color !== undefined, body.color ?? null, body.blocksEntry ?? null, now],
      );
      if (!row) throw notFound(`Vehicle label ${params.labelId} does not exist.`);
      return { status: 200, body: present(row) };
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/labels/vehicles/:labelId',
    summary: 'Delete a vehicle label (it is taken off every vehicle that carries it)',
    tag,
    auth: 'token',
    scope: 'labels:write',
    params: LabelParams,
    responses: { 204: null },
    handler: async ({ db, principal, params }) => {
      // The assignments go with it (ON DELETE CASCADE).
      const row = await queryOne<{ id: number }>(db, 'DELETE FROM vehicle_labels WHERE account_id = $1 AND id = $2 RETURNING id', [
        principal.accountId,
        params.labelId,
      ]);
      if (!row) throw notFound(`Vehicle label ${params.labelId} does not exist.`);
      return { status: 204 };
    },
  }),
];
