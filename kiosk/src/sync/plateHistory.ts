import type { ApiClient } from '../../../shared/src/client';
import { type VehicleStatus, normalizePlate } from '../../../shared/src/domain';
import { confirmVehicle } from '../data/projection';
import type { KioskDatabase } from '../data/database';
import { localPlateVisits } from '../data/queries';
import type { VehicleVisit } from '../data/types';
import { readVehicle } from './answers';

/** One visit of a plate, as the gate lists it when the guard chooses the plate. */
export interface PlateVisit {
  /** Stable for a list: the server's id, else the local one. */
  key: string;
  licensePlate: string;
  status: VehicleStatus;
  entryAt: string;
  exitAt: string | null;
  driverName: string | null;
  stopReason: string | null;
}

export interface PlateHistory {
  plate: string;
  visits: PlateVisit[];
  /** Whether the server's list is in it, or only what this kiosk holds (offline, or the server did not answer). */
  fromServer: boolean;
}

/** How many visits of a plate the gate shows. */
export const PLATE_HISTORY_LIMIT = 10;

const fromLocal = (visit: VehicleVisit): PlateVisit => ({
  key: visit.serverId === undefined ? visit.visitId : `server:${visit.serverId}`,
  licensePlate: visit.licensePlate,
  status: visit.status,
  entryAt: visit.entryAt,
  exitAt: visit.exitAt,
  driverName: visit.driverName ?? null,
  stopReason: visit.stopReason ?? null,
});

/**
 * The last visits of a plate at this site: what this kiosk holds (its own, with what it still owes the
 * server applied), and, when there is a link, the server's history by plate. A visit in both shows as
 * this kiosk has it; its newest state is on its way to the server.
 */
export async function plateHistory(
  deps: { db: KioskDatabase; api: ApiClient; siteId: number; hasLink: () => boolean },
  licensePlate: string,
): Promise<PlateHistory> {
  const plate = licensePlate.trim();
  const local = (await localPlateVisits(deps.db, deps.siteId, normalizePlate(plate))).map(fromLocal);
  const found = deps.hasLink()
    ? await deps.api.searchVehicles({ siteIds: [deps.siteId], licensePlate: plate, limit: PLATE_HISTORY_LIMIT })
    : undefined;
  if (found?.kind !== 'ok') return { plate, visits: local.slice(0, PLATE_HISTORY_LIMIT), fromServer: false };
  const held = new Set(local.map((visit) => visit.key));
  const server: PlateVisit[] = [];
  for (const answer of found.value.data) {
    const reading = readVehicle(answer);
    if (!reading.kept || held.has(`server:${reading.checkin.checkinId}`)) continue;
    const { checkin } = reading;
    const confirmed = confirmVehicle(checkin);
    server.push({
      key: `server:${checkin.checkinId}`,
      licensePlate: checkin.licensePlate,
      status: checkin.status,
      entryAt: confirmed.entryAt,
      exitAt: confirmed.exitAt,
      driverName: checkin.driverName,
      stopReason: confirmed.stopReason ?? null,
    });
  }
  const visits = [...local, ...server].sort((a, b) => Date.parse(b.entryAt) - Date.parse(a.entryAt));
  return { plate, visits: visits.slice(0, PLATE_HISTORY_LIMIT), fromServer: true };
}
