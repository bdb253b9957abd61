import type { CreateUserRequest } from '../../../shared/src/schemas/staff';
import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';
import type { StaffUserRow } from '../queries/staffUserRows';
import { notFound } from '../errors/problem';
import { createLink } from './staffLinks';
import { createStaffUser } from './staffUsers';

/**
 * A new staff user and their one-time invitation code (the password is theirs to set). `checkAccount`: for
 * the management API, whose path names an account that may not exist (404).
 */
export async function inviteStaffUser(
  db: Executor,
  input: { accountId: number; request: CreateUserRequest; now: Date; checkAccount?: boolean },
): Promise<{ row: StaffUserRow; code: string }> {
  const { accountId, request, now } = input;
  if (input.checkAccount) {
    const account = await queryOne(db, sql`SELECT 1 AS found FROM accounts WHERE id = ${accountId} FOR SHARE`);
    if (!account) throw notFound(`Account ${accountId} does not exist.`);
  }
  const row = await createStaffUser(db, { accountId, request, now });
  const code = await createLink(db, { accountId: row.account_id, kind: 'invitation', userId: row.id, now });
  return { row, code };
}
