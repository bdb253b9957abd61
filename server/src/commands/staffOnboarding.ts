import type { StaffUser } from '../../../shared/src/schemas/staff';
import { writeAudit } from '../audit/record';
import { endUserSessions, startSession } from '../auth/sessions';
import { type Executor, inTransaction, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { findStaffUser } from '../db/staffUserRows';
import { notFound } from '../errors/problem';
import { presentStaffUser } from '../presenters/staffUser';
import { findLiveLink, useLink } from './staffLinks';
import { newPasswordHash } from './staffPasswords';
import { createStaffUser } from './staffUsers';

const deadLink = () => notFound('This link is unknown, used or expired: ask for a new one.');

interface Redeemed {
  user: StaffUser;
  sessionId: string;
}

/** Redeems a setup link: the account's first owner, signed in at once; audited as the owner's own act. */
export async function redeemSetup(
  db: Executor,
  input: { code: string; name: string; email: string; password: string; now: Date; requestId: string },
): Promise<Redeemed> {
  const preview = await findLiveLink(db, input.code, input.now);
  if (!preview || preview.kind !== 'setup') throw deadLink();
  const passwordHash = await newPasswordHash(input.password, 'password', {
    email: input.email,
    name: input.name,
    accountName: preview.info.accountName,
  });
  return inTransaction(db, async (tx) => {
    const link = await findLiveLink(tx, input.code, input.now, true);
    if (!link || link.kind !== 'setup') throw deadLink();
    // Two setup links redeemed at once: one account, one first owner (the second waits, then finds an owner).
    await queryRows(tx, sql`SELECT id FROM accounts WHERE id = ${link.accountId} FOR UPDATE`);
    if (!(await findLiveLink(tx, input.code, input.now))) throw deadLink();
    const row = await createStaffUser(tx, {
      accountId: link.accountId,
      request: { email: input.email, name: input.name, role: 'owner', allSites: true, passwordHash },
      now: input.now,
    });
    await useLink(tx, input.code, link, input.now);
    const user = presentStaffUser({ ...row, last_sign_in_at: input.now });
    await writeAudit(tx, {
      accountId: link.accountId,
      actor: { type: 'user', id: user.userId, name: user.name },
      at: input.now,
      requestId: input.requestId,
      action: 'user.created',
      target: { type: 'user', id: user.userId },
      siteId: null,
    });
    return { user, sessionId: await startSession(tx, { accountId: link.accountId, userId: user.userId }, input.now) };
  });
}

/** Redeems an invitation or a reset link: the user's password (and name) set, older sessions ended, a new one started. */
export async function redeemInvitation(
  db: Executor,
  input: { code: string; name?: string; password: string; now: Date; requestId: string },
): Promise<Redeemed> {
  // Read first (the hash takes a while, and must not hold the link's lock): whose password it will be.
  const preview = await findLiveLink(db, input.code, input.now);
  if (!preview || preview.kind === 'setup') throw deadLink();
  const passwordHash = await newPasswordHash(input.password, 'password', {
    email: preview.info.email,
    name: input.name ?? preview.info.name,
    accountName: preview.info.accountName,
  });
  return inTransaction(db, async (tx) => {
    const link = await findLiveLink(tx, input.code, input.now, true);
    if (!link || link.kind === 'setup' || link.userId === null) throw deadLink();
    const key = { accountId: link.accountId, userId: link.userId };
    await queryRows(
      tx,
      sql`UPDATE staff_users SET password_hash = ${passwordHash}, name = COALESCE(${input.name ?? null}::text, name)
          WHERE account_id = ${key.accountId} AND id = ${key.userId}`,
    );
    await useLink(tx, input.code, link, input.now);
    await endUserSessions(tx, key);
    const row = await findStaffUser(tx, key);
    if (!row) throw deadLink();
    await writeAudit(tx, {
      accountId: key.accountId,
      actor: { type: 'user', id: row.id, name: row.name },
      at: input.now,
      requestId: input.requestId,
      action: 'user.password_set',
      target: { type: 'user', id: row.id },
      siteId: null,
    });
    return {
      user: presentStaffUser({ ...row, last_sign_in_at: input.now }),
      sessionId: await startSession(tx, key, input.now),
    };
  });
}
