import { CreateVehicleLabelRequest, UpdateVehicleLabelRequest, VehicleLabel } from '../../../../shared/src/schemas/vehicles';
import { createVehicleLabel, deleteVehicleLabel, updateVehicleLabel, vehicleLabels } from '../../commands/vehicleLabels';
import { listByIdRoute, readByIdRoute } from '../accountCollection';
import { defineRoute } from '../define';
import { LabelParams } from '../params';
import { auditParam, auditReply } from '../../audit/targets';

const tag = 'Vehicle labels';

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
    audit: auditReply('vehicle_label.created', 'vehicle_label', 'labelId'),
    handler: async ({ db, principal, body, now }) => ({
      status: 201,
      body: await createVehicleLabel(db, { accountId: principal.accountId, request: body, now }),
    }),
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
    audit: auditReply('vehicle_label.updated', 'vehicle_label', 'labelId'),
    handler: async ({ db, principal, params, body, now }) => ({
      status: 200,
      body: await updateVehicleLabel(db, { accountId: principal.accountId, labelId: params.labelId, request: body, now }),
    }),
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
    audit: auditParam('vehicle_label.deleted', 'vehicle_label', 'labelId'),
    handler: async ({ db, principal, params }) => {
      await deleteVehicleLabel(db, { accountId: principal.accountId, labelId: params.labelId });
      return { status: 204 };
    },
  }),
];
