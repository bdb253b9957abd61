import type { VehicleCheckin } from '../../../shared/src/schemas/vehicles';
import type { VehicleCheckinRow } from '../queries/vehicleCheckinRows';
import { presentEntry, presentExit } from './visit';

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
    // Field by field: no object spread in this literal (V8 makes it slow, see arrivingVisit).
    entry: presentEntry(row),
    exit: presentExit(row),
    denyReason: row.deny_reason,
    stopReason: row.stop_reason,
    decidedBy: row.decided_by,
    decidedAt: row.decided_at ? row.decided_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
