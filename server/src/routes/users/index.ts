import { z } from 'zod';
import { IntId } from '../../../../shared/src/schemas/common';
import {
  CreateUserRequest,
  CreatedUser,
  PasswordResetLink,
  StaffUser,
  UpdateUserRequest,
  UserList,
} from '../../../../shared/src/schemas/staff';
import { fieldOf, memberOf } from '../../audit/targets';
import { ownOrigin } from '../../auth/csrf';
import { createLink, linkUrl } from '../../commands/staffLinks';
import { inviteStaffUser } from '../../commands/staffInvitation';
import { updateStaffUser } from '../../commands/staffUsers';
import { findStaffUser, listStaffUsers } from '../../queries/staffUserRows';
import { notFound } from '../../errors/problem';
import { presentStaffUser } from '../../presenters/staffUser';
import { type HandlerContext, defineRoute } from '../define';
import { adminUserRoutes } from './admin';
import { linkCodeExample, staffUserExample } from '../staffExamples';

const tag = 'Staff users';
const UserParams = z.strictObject({ userId: IntId });

/** Where links point: PUBLIC_URL, or the origin the request came to. */
export const linkBase = (ctx: Pick<HandlerContext<unknown, unknown, unknown>, 'deps' | 'koa'>) =>
  ctx.deps.env.PUBLIC_URL ?? ownOrigin(ctx.koa);

/** A created user is the reply's `user`; an updated one the reply itself. */
const userAudit = (action: string) => (_ctx: unknown, body: unknown) => ({
  action,
  target: { type: 'user', id: fieldOf(memberOf(body, 'user') ?? body, 'userId') },
  siteId: null,
});

export const userRoutes = [
  defineRoute({
    method: 'GET',
    path: '/users',
    summary: 'Every staff user of the account',
    description: 'Every staff user of the account, by id.',
    examples: { response: { data: [staffUserExample] } },
    tag,
    auth: 'token',
    scope: 'users:manage',
    responses: { 200: UserList },
    handler: async (ctx) => ({
      status: 200,
      body: { data: (await listStaffUsers(ctx.db, ctx.principal.accountId)).map(presentStaffUser) },
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/users',
    summary: 'Invite a staff user: returns a one-time invitation link (72 h), shown once',
    description:
      'Creates a staff user without a password and returns their one-time invitation link (72 h), shown once. Email is unique in the installation, without regard to case.',
    examples: {
      request: { email: 'rita@example.com', name: 'Rita Reception', role: 'reception', siteIds: [1] },
      response: {
        user: { ...staffUserExample, lastSignInAt: null },
        invitationUrl: `https://gate.example.com/console/invitation?code=${linkCodeExample}`,
      },
    },
    conflict: { codes: ['EMAIL_TAKEN: a staff user has this email'] },
    tag,
    auth: 'token',
    scope: 'users:manage',
    body: CreateUserRequest,
    responses: { 201: CreatedUser },
    audit: userAudit('user.created'),
    handler: async (ctx) => {
      const { row, code } = await inviteStaffUser(ctx.db, {
        accountId: ctx.principal.accountId,
        request: ctx.body,
        now: ctx.now,
      });
      return {
        status: 201,
        body: { user: presentStaffUser(row), invitationUrl: linkUrl(linkBase(ctx), 'invitation', code) },
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/users/:userId',
    summary: 'One staff user',
    description: 'One staff user of the account.',
    examples: { response: staffUserExample },
    tag,
    auth: 'token',
    scope: 'users:manage',
    params: UserParams,
    responses: { 200: StaffUser },
    handler: async (ctx) => {
      const row = await findStaffUser(ctx.db, { accountId: ctx.principal.accountId, userId: ctx.params.userId });
      if (!row) throw notFound(`Staff user ${ctx.params.userId} does not exist.`);
      return { status: 200, body: presentStaffUser(row) };
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/users/:userId',
    summary: 'Change a staff user’s name, role, sites, or disable them (their sessions end); 409 LAST_OWNER',
    description:
      "Changes only the fields sent. A new role or disabling ends the user's sessions at once. The account keeps at least one enabled owner.",
    examples: { request: { role: 'security' }, response: { ...staffUserExample, role: 'security' } },
    conflict: {
      codes: ["LAST_OWNER: the account's last enabled owner cannot be demoted or disabled"],
      current: StaffUser,
    },
    tag,
    auth: 'token',
    scope: 'users:manage',
    params: UserParams,
    body: UpdateUserRequest,
    responses: { 200: StaffUser },
    audit: userAudit('user.updated'),
    handler: async (ctx) => {
      const row = await updateStaffUser(ctx.db, {
        accountId: ctx.principal.accountId,
        userId: ctx.params.userId,
        change: ctx.body,
      });
      return { status: 200, body: presentStaffUser(row) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/users/:userId/password-reset',
    summary: 'A one-time password-reset link (24 h) for a staff user, shown once',
    description:
      'A new one-time link (24 h) with which the user sets a new password; it ends their sessions when used.',
    examples: { response: { resetUrl: `https://gate.example.com/console/invitation?code=${linkCodeExample}` } },
    tag,
    auth: 'token',
    scope: 'users:manage',
    params: UserParams,
    responses: { 200: PasswordResetLink },
    audit: (ctx) => ({ action: 'user.password_reset', target: { type: 'user', id: ctx.params.userId }, siteId: null }),
    handler: async (ctx) => {
      const row = await findStaffUser(ctx.db, { accountId: ctx.principal.accountId, userId: ctx.params.userId });
      if (!row) throw notFound(`Staff user ${ctx.params.userId} does not exist.`);
      const code = await createLink(ctx.db, { accountId: row.account_id, kind: 'reset', userId: row.id, now: ctx.now });
      return { status: 200, body: { resetUrl: linkUrl(linkBase(ctx), 'reset', code) } };
    },
  }),
  ...adminUserRoutes,
];
