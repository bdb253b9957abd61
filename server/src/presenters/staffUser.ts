import { type StaffUser, roleHasAllSites } from '../../../shared/src/schemas/staff';
import type { StaffUserRow } from '../queries/staffUserRows';

/** The API shape of a staff user, field by field (never its password hash). */
export function presentStaffUser(row: StaffUserRow): StaffUser {
  const allSites = row.all_sites || roleHasAllSites(row.role);
  return {
    userId: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    siteIds: allSites ? [] : row.site_ids,
    allSites,
    disabled: row.disabled,
    createdAt: row.created_at.toISOString(),
    lastSignInAt: row.last_sign_in_at ? row.last_sign_in_at.toISOString() : null,
  };
}
