import { CreateUserRequest, CreatedUser } from '../../../../shared/src/schemas/staff';
import { ownOrigin } from '../../auth/csrf';
import { createLink, linkUrl } from '../../commands/staffLinks';
import { createStaffUser } from '../../commands/staffUsers';
import { queryOne } from '../../db/query';
import { sql } from '../../db/sql';
import { notFound } from '../../errors/problem';
import { presentStaffUser } from '../../presenters/staffUser';
import { defineRoute } from '../define';
import { AccountParams } from '../params';

/** For automation: a staff user of any account, with their one-time invitation link. */
export const adminUserRoutes = [
  defineRoute({
    method: 'POST',
    path: '/admin/accounts/:accountId/users',
    summary: 'Create a staff user in an account: returns a one-time invitation link (72 h)',
    tag: 'Management (ADMIN_TOKEN)',
    auth: 'admin',
    params: AccountParams,
    body: CreateUserRequest,
    responses: { 201: CreatedUser },
    handler: async (ctx) => {
      const account = await queryOne(ctx.db, sql`SELECT 1 AS found FROM accounts WHERE id = ${ctx.params.accountId} FOR SHARE`);
      if (!account) throw notFound(`Account ${ctx.params.accountId} does not exist.`);
      const row = await createStaffUser(ctx.db, { accountId: ctx.params.accountId, request: ctx.body, now: ctx.now });
      const code = await createLink(ctx.db, { accountId: row.account_id, kind: 'invitation', userId: row.id, now: ctx.now });
      const base = ctx.deps.env.PUBLIC_URL ?? ownOrigin(ctx.koa);
      return { status: 201, body: { user: presentStaffUser(row), invitationUrl: linkUrl(base, 'invitation', code) } };
    },
  }),
];
