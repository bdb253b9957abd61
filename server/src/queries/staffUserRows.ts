import type { Role } from '../../../shared/src/schemas/staff';
import { type Executor, queryOne, queryRows } from '../db/query';
import { type Sql, empty, raw, sql } from '../db/sql';

/** A staff user as stored (never its password hash outside the sign-in path), with its site list. */
export interface StaffUserRow {
  account_id: number;
  id: number;
  email: string;
  name: string;
  role: Role;
  all_sites: boolean;
  disabled: boolean;
  created_at: Date;
  last_sign_in_at: Date | null;
  site_ids: number[];
}

const COLUMNS =
  raw(`u.account_id, u.id, u.email, u.name, u.role, u.all_sites, u.disabled, u.created_at, u.last_sign_in_at,
  COALESCE(ARRAY(SELECT us.site_id FROM staff_user_sites us WHERE us.account_id = u.account_id AND us.user_id = u.id ORDER BY us.site_id), '{}') AS site_ids`);

export const STAFF_USER_SELECT = sql`SELECT ${COLUMNS} FROM staff_users u`;
const STAFF_USER_SELECT_WITH_HASH: Sql = sql`SELECT ${COLUMNS}, u.password_hash FROM staff_users u`;

/** One user of an account, or undefined. */
export async function findStaffUser(
  db: Executor,
  key: { accountId: number; userId: number },
  lock?: 'FOR UPDATE',
): Promise<StaffUserRow | undefined> {
  return queryOne<StaffUserRow>(
    db,
    sql`${STAFF_USER_SELECT} WHERE u.account_id = ${key.accountId} AND u.id = ${key.userId} ${lock ? raw(lock) : empty}`,
  );
}

/** Every user of an account, by id. */
export async function listStaffUsers(db: Executor, accountId: number): Promise<StaffUserRow[]> {
  return queryRows<StaffUserRow>(db, sql`${STAFF_USER_SELECT} WHERE u.account_id = ${accountId} ORDER BY u.id`);
}

/** The sign-in view of a user: found by email (case-insensitive), with the hash to verify against. */
export async function findForSignIn(
  db: Executor,
  email: string,
): Promise<(StaffUserRow & { password_hash: string | null }) | undefined> {
  return queryOne(db, sql`${STAFF_USER_SELECT_WITH_HASH} WHERE lower(u.email) = lower(${email})`);
}
