import type { StaffUserAnswer } from '../../shared/src/client/staff';

/** What the console shows a role (docs/api.md, Staff roles): pages and buttons it cannot use are not shown. */
export interface Permissions {
  onSite: boolean;
  checkInOut: boolean;
  approvePeople: boolean;
  approveVehicles: boolean;
  alerts: boolean;
}

const none: Permissions = { onSite: false, checkInOut: false, approvePeople: false, approveVehicles: false, alerts: false };

const byRole: Record<string, Permissions> = {
  owner: { onSite: true, checkInOut: true, approvePeople: true, approveVehicles: true, alerts: true },
  manager: { onSite: true, checkInOut: true, approvePeople: true, approveVehicles: true, alerts: true },
  reception: { onSite: true, checkInOut: true, approvePeople: true, approveVehicles: false, alerts: true },
  security: { onSite: true, checkInOut: false, approvePeople: true, approveVehicles: true, alerts: true },
};

export function permissionsOf(user: StaffUserAnswer): Permissions {
  return byRole[user.role] ?? none;
}
