import type { Vehicle, VehicleLabel } from '../../../shared/src/schemas/vehicles';
import type { VehicleLabelRow, VehicleRow } from '../queries/vehicleRows';

/** The API shape of a vehicle profile, field by field (a row is never serialized as it is). */
export function presentVehicle(row: VehicleRow): Vehicle {
  return {
    vehicleId: row.id,
    licensePlate: row.license_plate,
    make: row.make,
    model: row.model,
    color: row.color,
    description: row.description,
    labelIds: row.label_ids,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The API shape of a vehicle label. */
export const presentVehicleLabel = (row: VehicleLabelRow): VehicleLabel => ({
  labelId: row.id,
  name: row.name,
  color: row.color,
  blocksEntry: row.blocks_entry,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});
