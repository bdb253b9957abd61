import type { PersonCheckinAnswer, VehicleCheckinAnswer } from '../../shared/src/client';
import type { Permissions } from '../session/permissions';
import { type OnSiteRow, onSiteRows } from '../onSite/rows';

/** Who is waiting for approval on the user's sites, people and vehicles apart, oldest first. */
export function waitingRows(people: readonly PersonCheckinAnswer[], vehicles: readonly VehicleCheckinAnswer[]) {
  const pending = onSiteRows(people, vehicles, null).filter((row) => row.status === 'PENDING');
  return {
    people: pending.filter((row) => row.kind === 'person'),
    vehicles: pending.filter((row) => row.kind === 'vehicle'),
  };
}

/** Whether the user may approve or deny this one: reception decides on people only. */
export const mayDecide = (can: Permissions, row: OnSiteRow): boolean =>
  row.kind === 'person' ? can.approvePeople : can.approveVehicles;

/**
 * The navigation's count (docs/running-a-site.md, Approvals): those waiting that the user may decide, so it
 * goes down with every decision they make.
 */
export function waitingForUser(
  can: Permissions,
  people: readonly PersonCheckinAnswer[],
  vehicles: readonly VehicleCheckinAnswer[],
): number {
  const waiting = waitingRows(people, vehicles);
  return [...waiting.people, ...waiting.vehicles].filter((row) => mayDecide(can, row)).length;
}
