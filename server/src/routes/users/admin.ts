import { CreateUserRequest, CreatedUser } from '../../../../shared/src/schemas/staff';
import { fieldOf, memberOf } from '../../audit/targets';
import { ownOrigin } from '../../auth/csrf';
import { inviteStaffUser } from '../../commands/staffInvitation';
import { linkUrl } from '../../commands/staffLinks';
import { presentStaffUser } from '../../presenters/staffUser';
import { defineRoute } from '../define';
import { AccountParams } from '../params';
import { linkCodeExample, staffUserExample } from '../staffExamples';

/** For automation: a staff user of any account, with their one-time invitation link. */
export const adminUserRoutes = [
  defineRoute({
    method: 'POST',
    path: '/admin/accounts/:accountId/users',
    summary: 'Create a staff user in an account: returns a one-time invitation link (72 h)',
    description:
      'For automation: creates a staff user of the account, as POST /users does, and returns their invitation link.',
    examples: {
      request: { email: 'olive@example.com', name: 'Olive Owner', role: 'owner', allSites: true },
      response: {
        user: {
          ...staffUserExample,
          email: 'olive@example.com',
          name: 'Olive Owner',
          role: 'owner',
          siteIds: [],
          allSites: true,
          lastSignInAt: null,
        },
        invitationUrl: `https://gate.example.com/console/invitation?code=${linkCodeExample}`,
      },
    },
    conflict: { codes: ['EMAIL_TAKEN: a staff user has this email'] },
    tag: 'Management (ADMIN_TOKEN)',
    auth: 'admin',
    params: AccountParams,
    body: CreateUserRequest,
    responses: { 201: CreatedUser },
    audit: (ctx, body) => ({
      action: 'user.created',
      target: { type: 'user', id: fieldOf(memberOf(body, 'user'), 'userId') },
      siteId: null,
      accountId: ctx.params.accountId,
    }),
    handler: async (ctx) => {
      const { row, code } = await inviteStaffUser(ctx.db, {
        accountId: ctx.params.accountId,
        request: ctx.body,
        now: ctx.now,
        checkAccount: true,
      });
      const base = ctx.deps.env.PUBLIC_URL ?? ownOrigin(ctx.koa);
      return { status: 201, body: { user: presentStaffUser(row), invitationUrl: linkUrl(base, 'invitation', code) } };
    },
  }),
];
