import {
  CreateVehicleLabelRequest,
  UpdateVehicleLabelRequest,
  VehicleLabel,
} from '../../../../shared/src/schemas/vehicles';
import {
  createVehicleLabel,
  deleteVehicleLabel,
  updateVehicleLabel,
  vehicleLabels,
} from '../../commands/vehicleLabels';
import { listByIdRoute, readByIdRoute } from '../accountCollection';
import { defineRoute } from '../define';
import { vehicleLabelExample } from '../examples';
import { LabelParams } from '../params';
import { auditParam, auditReply } from '../../audit/targets';

const tag = 'Vehicle labels';

export const vehicleLabelRoutes = [
  defineRoute({
    method: 'POST',
    path: '/labels/vehicles',
    summary: 'Create a vehicle label (blocksEntry: vehicles carrying it are stopped at the gate)',
    description:
      'Creates a label of the account for vehicles. A label with `blocksEntry` stops the vehicles carrying it at the gate (status STOP). Names are unique in the account, compared case-insensitively.',
    examples: {
      request: { name: 'Banned', color: '#cc0000', blocksEntry: true },
      response: { ...vehicleLabelExample, name: 'Banned', color: '#cc0000', blocksEntry: true },
    },
    conflict: { codes: ['LABEL_NAME_TAKEN: the account has a vehicle label of that name'], current: VehicleLabel },
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
  listByIdRoute(vehicleLabels, {
    path: '/labels/vehicles',
    summary: 'List vehicle labels (oldest first)',
    description: 'The vehicle labels of the account, oldest first.',
    example: vehicleLabelExample,
    tag,
    scope: 'vehicles:read',
    item: VehicleLabel,
  }),
  readByIdRoute(vehicleLabels, {
    path: '/labels/vehicles/:labelId',
    summary: 'Read a vehicle label',
    description: 'One vehicle label of the account.',
    example: vehicleLabelExample,
    tag,
    scope: 'vehicles:read',
    item: VehicleLabel,
    params: LabelParams,
    idOf: (params) => params.labelId,
  }),
  defineRoute({
    method: 'PATCH',
    path: '/labels/vehicles/:labelId',
    summary: 'Rename, recolor or (un)block a vehicle label (null clears the color)',
    description:
      'Changes only the fields sent; `color: null` clears the color. Names are unique in the account, compared case-insensitively.',
    examples: { request: { blocksEntry: true }, response: { ...vehicleLabelExample, blocksEntry: true } },
    conflict: { codes: ['LABEL_NAME_TAKEN: the account has a vehicle label of that name'], current: VehicleLabel },
    tag,
    auth: 'token',
    scope: 'labels:write',
    params: LabelParams,
    body: UpdateVehicleLabelRequest,
    responses: { 200: VehicleLabel },
    audit: auditReply('vehicle_label.updated', 'vehicle_label', 'labelId'),
    handler: async ({ db, principal, params, body, now }) => ({
      status: 200,
      body: await updateVehicleLabel(db, {
        accountId: principal.accountId,
        labelId: params.labelId,
        request: body,
        now,
      }),
    }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/labels/vehicles/:labelId',
    summary: 'Delete a vehicle label (it is taken off every vehicle that carries it)',
    description: 'Deletes the label and takes it off every vehicle that carries it.',
    examples: { response: null },
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
