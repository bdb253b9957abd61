import type { ApiClient } from '../../../shared/src/client';
import { normalizePlate, plateProblem } from '../../../shared/src/domain';
import { type CommandContext, type CommandResult, refused } from '../data/command';
import type { VehicleVisit } from '../data/types';
import { adoptVehicleVisit, findLocalVehicleVisit, vehicleExit } from '../data/vehicleCommands';
import { readVehicle } from './answers';

/**
 * "Exit" at the gate for a plate: the visit this kiosk knows first (no network needed), else the open
 * visit the server finds by plate, made local and checked out through the outbox like any other exit.
 */
export async function exitByPlate(
  ctx: CommandContext,
  deps: {
    api: ApiClient;
    hasLink: () => boolean;
    siteId: number;
    /** The device's own clock, which the pull compares `syncedAt` with (ctx.now may be corrected by the server's). */
    deviceNow: () => number;
  },
  licensePlate: string,
): Promise<CommandResult<VehicleVisit>> {
  // The plate's own rule first, as an entry does: no visit can have a plate that breaks it, and asking the
  // server would only come back as a failed lookup ("could not look up"), which sends the guard the wrong way.
  const problem = plateProblem(licensePlate.trim());
  if (problem) return refused('VALIDATION_FAILED', problem, [{ path: 'licensePlate', message: problem }]);
  // Named as the gate shows plates: normalized.
  const plate = normalizePlate(licensePlate);
  const local = await findLocalVehicleVisit(ctx.db, deps.siteId, licensePlate);
  if (local) return vehicleExit(ctx, local.visitId);
  if (!deps.hasLink())
    return refused('NOT_FOUND', `No visit of ${plate} is known here, and the server cannot be asked offline.`);
  const found = await deps.api.searchVehicles({ siteIds: [deps.siteId], licensePlate, limit: 5 });
  if (found.kind === 'unreachable') return refused('UNREACHABLE', `The server cannot be reached to look up ${plate}.`);
  if (found.kind !== 'ok') return refused('LOOKUP_FAILED', `The server could not look up ${plate}.`);
  const open = found.value.data.find((visit) => visit.status !== 'OUT');
  if (!open) return refused('NOT_FOUND', `${plate} has no open visit on this site.`);
  const reading = readVehicle(open);
  // A status newer than this kiosk: whether the visit may be checked out, and what it then shows, is unknown here.
  if (!reading.kept) {
    return refused(
      'UNKNOWN_STATUS',
      `The server has ${plate} as ${reading.status}, a status this kiosk does not know: record its exit elsewhere.`,
    );
  }
  const visit = await adoptVehicleVisit(ctx.db, reading.checkin, deps.deviceNow());
  return vehicleExit(ctx, visit.visitId);
}
