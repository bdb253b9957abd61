import type { KioskDatabase } from './database';

/** The `meta` key of the change feed's cursor: how far the local copy has come (sync/vehicleDirectoryPull.ts). */
export const VEHICLE_DIRECTORY_CURSOR = 'vehicleDirectoryCursor';

/** Drops the local copy and its cursor (inside a transaction over the three tables): the next pull starts over. */
export async function clearVehicleDirectory(db: KioskDatabase): Promise<void> {
  await Promise.all([db.knownVehicles.clear(), db.vehicleLabels.clear(), db.meta.delete(VEHICLE_DIRECTORY_CURSOR)]);
}

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
 * not pulled yet). A label the copy does not hold yet (its change is on a later page) is left out. Called
 * inside a transaction, that transaction must include `knownVehicles` and `vehicleLabels`.
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

/** The registered vehicles of these plates (normalized) in the local copy, by plate: what the gate's cards describe. */
export async function knownVehiclesOf(
  db: KioskDatabase,
  plateKeys: readonly string[],
): Promise<Map<string, KnownVehicle>> {
  return db.transaction('r', [db.knownVehicles, db.vehicleLabels], async () => {
    const known = new Map<string, KnownVehicle>();
    for (const plateKey of new Set(plateKeys)) {
      const vehicle = await findKnownVehicle(db, plateKey);
      if (vehicle) known.set(plateKey, vehicle);
    }
    return known;
  });
}
