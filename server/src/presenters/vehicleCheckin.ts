import type { VehicleCheckin } from '../../../shared/src/schemas/vehicles';
import type { VehicleCheckinRow } from '../db/vehicleCheckinRows';

/** The API shape of a vehicle check-in, field by field (a row is never serialized as it is). */
export function presentVehicleCheckin(row: VehicleCheckinRow): VehicleCheckin {
  return {
    checkinId: row.id,
    siteId: row.site_id,
    vehicleId: row.vehicle_id,
    licensePlate: row.license_plate,
    status: row.status,
    driverName: row.driver_name,
    notes: row.notes,
    entry: { source: row.entry_source, at: row.entry_at.toISOString() },
    exit: row.exit_at && row.exit_source ? { source: row.exit_source, at: row.exit_at.toISOString() } : null,
    denyReason: row.deny_reason,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
