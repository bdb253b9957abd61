import type { KioskDatabase } from './database';

/** A registered vehicle as the gate knows it offline: its plate, description, and labels by name. */
export interface KnownVehicle {
  vehicleId: number;
  licensePlate: string;
  plateKey: string;
  make: string | null;
  model: string | null;
  color: string | null;
  labelNames: string[];
  blockingLabelNames: string[];
}

/**
 * The registered vehicle with this normalized plate in the kiosk's local copy, or undefined (unknown, or
 * not pulled yet). A label the copy does not hold yet (its change is on a later page) is left out.
 */
export async function findKnownVehicle(db: KioskDatabase, plateKey: string): Promise<KnownVehicle | undefined> {
  return db.transaction('r', [db.knownVehicles, db.vehicleLabels], async () => {
    // A plate moving between two vehicles can be held by both for a moment (between two pages): the newer wins.
    const matches = await db.knownVehicles.where('plateKey').equals(plateKey).toArray();
    const vehicle = matches.sort((a, b) => b.vehicleId - a.vehicleId)[0];
    if (!vehicle) return undefined;
    const labels = (await db.vehicleLabels.bulkGet(vehicle.labelIds))
      .flatMap((label) => (label ? [label] : []))
      .sort((a, b) => a.name.localeCompare(b.name));
    return {
      vehicleId: vehicle.vehicleId,
      licensePlate: vehicle.licensePlate,
      plateKey: vehicle.plateKey,
      make: vehicle.make,
      model: vehicle.model,
      color: vehicle.color,
      labelNames: labels.map((label) => label.name),
      blockingLabelNames: labels.filter((label) => label.blocksEntry).map((label) => label.name),
    };
  });
}
