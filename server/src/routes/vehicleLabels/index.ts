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
import { vehicleLabelExample } from '../examples';
import { labelRoutesOf } from '../labelRoutes';

export const vehicleLabelRoutes = labelRoutesOf({
  kind: vehicleLabels,
  path: '/labels/vehicles',
  tag: 'Vehicle labels',
  readScope: 'vehicles:read',
  label: VehicleLabel,
  example: vehicleLabelExample,
  target: 'vehicle_label',
  create: {
    summary: 'Create a vehicle label (blocksEntry: vehicles carrying it are stopped at the gate)',
    description:
      'Creates a label of the account for vehicles. A label with `blocksEntry` stops the vehicles carrying it at the gate (status STOP). Names are unique in the account, compared case-insensitively.',
    examples: {
      request: { name: 'Banned', color: '#cc0000', blocksEntry: true },
      response: { ...vehicleLabelExample, name: 'Banned', color: '#cc0000', blocksEntry: true },
    },
    body: CreateVehicleLabelRequest,
    run: createVehicleLabel,
  },
  update: {
    summary: 'Rename, recolor or (un)block a vehicle label (null clears the color)',
    examples: { request: { blocksEntry: true }, response: { ...vehicleLabelExample, blocksEntry: true } },
    body: UpdateVehicleLabelRequest,
    run: updateVehicleLabel,
  },
  remove: {
    summary: 'Delete a vehicle label (it is taken off every vehicle that carries it)',
    description: 'Deletes the label and takes it off every vehicle that carries it.',
    run: deleteVehicleLabel,
  },
});
