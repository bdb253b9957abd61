import { isKnown } from '../../shared/src/client/answers';
import type { StaffUserAnswer } from '../../shared/src/client/staff';
import type { Scope } from '../../shared/src/schemas/admin';
import { roleScopes, roles } from '../../shared/src/schemas/staff';

/** What the console shows a user: only the pages and buttons their role's scopes allow. */
export interface Permissions {
  onSite: boolean;
  checkInOut: boolean;
  approvePeople: boolean;
  approveVehicles: boolean;
  alerts: boolean;
  history: boolean;
  exportHistory: boolean;
  vehicles: boolean;
  manageVehicles: boolean;
  watchlist: boolean;
  hosts: boolean;
  /** The Expected page, and inviting visitors, cancelling and resending their passes. */
  expected: boolean;
  invite: boolean;
  sites: boolean;
  kiosks: boolean;
  staff: boolean;
  tokens: boolean;
  webhooks: boolean;
  audit: boolean;
}

export function permissionsOf(user: StaffUserAnswer): Permissions {
  // A role newer than this console gets nothing it cannot vouch for.
  const scopes: readonly Scope[] = isKnown(roles, user.role) ? roleScopes[user.role] : [];
  const has = (scope: Scope) => scopes.includes(scope);
  return {
    onSite: has('checkins:read'),
    checkInOut: has('checkins:write'),
    approvePeople: has('checkins:approve'),
    // Vehicle decisions also need vehicles:write (docs/api.md, Staff roles): reception approves people only.
    approveVehicles: has('checkins:approve') && has('vehicles:write'),
    alerts: has('alerts:manage'),
    // History is for those who keep the visit records (docs/running-a-site.md, Roles): managers and owners,
    // who also export them, and reception, who checks people in and out. Security works from On site now.
    history: has('checkins:read') && (has('exports:read') || has('checkins:write')),
    exportHistory: has('exports:read'),
    vehicles: has('vehicles:read'),
    manageVehicles: has('vehicles:write') && has('labels:write'),
    watchlist: has('watchlist:manage'),
    hosts: has('hosts:manage'),
    expected: has('invitations:read'),
    invite: has('invitations:write'),
    sites: has('sites:configure'),
    kiosks: has('kiosks:manage'),
    staff: has('users:manage'),
    tokens: has('tokens:manage'),
    webhooks: has('webhooks:manage'),
    audit: has('audit:read'),
  };
}
