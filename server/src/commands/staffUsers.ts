import type { CreateUserRequest, Role, UpdateUserRequest } from '../../../shared/src/schemas/staff';
import { endUserSessions } from '../auth/sessions';
import { type Executor, queryOne, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { type StaffUserRow, findStaffUser } from '../queries/staffUserRows';
import { conflict, notFound } from '../errors/problem';
import { checkSitesBelong } from '../policies/accountSites';
import { presentStaffUser } from '../presenters/staffUser';

/** 23505 on the email index: someone took the address meanwhile. */
const isEmailTaken = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  (error as { code?: unknown }).code === '23505' &&
  (error as { constraint?: unknown }).constraint === 'staff_users_email_key';

const emailTaken = (email: string) => conflict('EMAIL_TAKEN', `A staff user with the email ${email} exists already.`);

/** Creates a user without a password (they set one through their invitation link). Email is unique in the installation. */
export async function createStaffUser(
  db: Executor,
  input: { accountId: number; request: CreateUserRequest | (CreateUserRequest & { passwordHash: string }); now: Date },
): Promise<StaffUserRow> {
  const { request } = input;
  const siteIds = request.allSites ? [] : (request.siteIds ?? []);
  await checkSitesBelong(db, { accountId: input.accountId, siteIds, owner: 'user' });
  const taken = await queryOne(
    db,
    sql`SELECT 1 AS found FROM staff_users WHERE lower(email) = lower(${request.email})`,
  );
  if (taken) throw emailTaken(request.email);
  const hash = 'passwordHash' in request ? request.passwordHash : null;
  let row: { id: number } | undefined;
  try {
    row = await queryOne<{ id: number }>(
      db,
      sql`INSERT INTO staff_users (account_id, email, name, role, all_sites, password_hash, created_at)
          VALUES (${input.accountId}, ${request.email}, ${request.name}, ${request.role}, ${request.allSites ?? false}, ${hash}, ${input.now})
          RETURNING id`,
    );
  } catch (error) {
    if (isEmailTaken(error)) throw emailTaken(request.email);
    throw error;
  }
  if (!row) throw new Error('staff user insert returned nothing');
  const key = { accountId: input.accountId, userId: row.id };
  await setUserSites(db, key, siteIds);
  const created = await findStaffUser(db, key);
  if (!created) throw new Error('staff user vanished');
  return created;
}

/** Whether the change leaves the user no longer an enabled owner. */
const losesOwnership = (user: StaffUserRow, change: { role?: Role; disabled?: boolean }) =>
  user.role === 'owner' &&
  !user.disabled &&
  ((change.role !== undefined && change.role !== 'owner') || change.disabled === true);

/**
 * Changes a user's name, role, sites or disabled flag. The account keeps an enabled owner who can sign in
 * (409 LAST_OWNER): an invited owner who has not set a password yet does not count. The enabled owners are
 * locked first, so two owners demoting each other at once cannot both succeed.
 * A new role, new sites or disabling ends the user's sessions at once.
 */
export async function updateStaffUser(
  db: Executor,
  input: { accountId: number; userId: number; change: UpdateUserRequest },
): Promise<StaffUserRow> {
  const { change } = input;
  const key = { accountId: input.accountId, userId: input.userId };
  const owners = await queryRows<{ id: number; can_sign_in: boolean }>(
    db,
    sql`SELECT id, password_hash IS NOT NULL AS can_sign_in FROM staff_users
        WHERE account_id = ${key.accountId} AND role = 'owner' AND NOT disabled ORDER BY id FOR UPDATE`,
  );
  const user = await findStaffUser(db, key, 'FOR UPDATE');
  if (!user) throw notFound(`Staff user ${input.userId} does not exist.`);
  const userCanSignIn = owners.some((owner) => owner.id === user.id && owner.can_sign_in);
  const otherOwnerCanSignIn = owners.some((owner) => owner.id !== user.id && owner.can_sign_in);
  if (losesOwnership(user, change) && userCanSignIn && !otherOwnerCanSignIn) {
    throw conflict(
      'LAST_OWNER',
      'The account must keep at least one enabled owner: make someone else owner first.',
      presentStaffUser(user),
    );
  }
  if (change.siteIds) await checkSitesBelong(db, { accountId: key.accountId, siteIds: change.siteIds, owner: 'user' });
  const allSites = change.allSites ?? (change.siteIds ? false : user.all_sites);
  await queryRows(
    db,
    sql`UPDATE staff_users SET name = ${change.name ?? user.name}, role = ${change.role ?? user.role}, all_sites = ${allSites},
          disabled = ${change.disabled ?? user.disabled}
        WHERE account_id = ${key.accountId} AND id = ${key.userId}`,
  );
  if (change.siteIds || change.allSites === true)
    await setUserSites(db, key, change.allSites ? [] : (change.siteIds ?? []));
  const accessChanged = (change.role !== undefined && change.role !== user.role) || change.disabled === true;
  if (accessChanged) await endUserSessions(db, key);
  const updated = await findStaffUser(db, key);
  if (!updated) throw new Error('staff user vanished');
  return updated;
}

/** Replaces the user's site list with `siteIds`. */
export async function setUserSites(
  db: Executor,
  key: { accountId: number; userId: number },
  siteIds: number[],
): Promise<void> {
  const ids = [...new Set(siteIds)];
  await queryRows(
    db,
    sql`WITH cleared AS (DELETE FROM staff_user_sites
                         WHERE account_id = ${key.accountId} AND user_id = ${key.userId} AND site_id <> ALL(${ids}::int[]))
        INSERT INTO staff_user_sites (account_id, user_id, site_id)
        SELECT ${key.accountId}, ${key.userId}, unnest(${ids}::int[]) ON CONFLICT DO NOTHING`,
  );
}
