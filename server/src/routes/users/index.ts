import { z } from 'zod';
import { IntId } from '../../../../shared/src/schemas/common';
import { CreateUserRequest, CreatedUser, PasswordResetLink, StaffUser, UpdateUserRequest, UserList } from '../../../../shared/src/schemas/staff';
import { ownOrigin } from '../../auth/csrf';
import { createLink, linkUrl } from '../../commands/staffLinks';
import { createStaffUser, updateStaffUser } from '../../commands/staffUsers';
import { findStaffUser, listStaffUsers } from '../../db/staffUserRows';
import { notFound } from '../../errors/problem';
import { presentStaffUser } from '../../presenters/staffUser';
import { type HandlerContext, defineRoute } from '../define';
import { adminUserRoutes } from './admin';

const tag = 'Staff users';
const UserParams = z.strictObject({ userId: IntId });

/** Where links point: PUBLIC_URL, or the origin the request came to. */
export const linkBase = (ctx: Pick<HandlerContext<unknown, unknown, unknown>, 'deps' | 'koa'>) => ctx.deps.env.PUBLIC_URL ?? ownOrigin(ctx.koa);

const userAudit = (action: string) => (_ctx: unknown, body: unknown) => {
  const user = (body as { user?: StaffUser }).user ?? (body as StaffUser);
  return { action, target: { type: 'user', id: user.userId }, siteId: null };
};

export const userRoutes = [
  defineRoute({
    method: 'GET',
    path: '/users',
    summary: 'Every staff user of the account',
    tag,
    auth: 'token',
    scope: 'users:manage',
    responses: { 200: UserList },
    handler: async (ctx) => ({ status: 200, body: { data: (await listStaffUsers(ctx.db, ctx.principal.accountId)).map(presentStaffUser) } }),
  }),
  defineRoute({
    method: 'POST',
    path: '/users',
    summary: 'Invite a staff user: returns a one-time invitation link (72 h), shown once',
    tag,
    auth: 'token',
    scope: 'users:manage',
    body: CreateUserRequest,
    responses: { 201: CreatedUser },
    audit: userAudit('user.created'),
    handler: async (ctx) => {
      const row = await createStaffUser(ctx.db, { accountId: ctx.principal.accountId, request: ctx.body, now: ctx.now });
      const code = await createLink(ctx.db, { accountId: row.account_id, kind: 'invitation', userId: row.id, now: ctx.now });
      return { status: 201, body: { user: presentStaffUser(row), invitationUrl: linkUrl(linkBase(ctx), 'invitation', code) } };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/users/:userId',
    summary: 'One staff user',
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
    tag,
    auth: 'token',
    scope: 'users:manage',
    params: UserParams,
    body: UpdateUserRequest,
    responses: { 200: StaffUser },
    audit: userAudit('user.updated'),
    handler: async (ctx) => {
      const row = await updateStaffUser(ctx.db, { accountId: ctx.principal.accountId, userId: ctx.params.userId, change: ctx.body });
      return { status: 200, body: presentStaffUser(row) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/users/:userId/password-reset',
    summary: 'A one-time password-reset link (24 h) for a staff user, shown once',
    tag,
    auth: 'token',
    scope: 'users:manage',
    params: UserParams,
    responses: { 200: PasswordResetLink },
    audit: (ctx) => ({ action: 'user.password_reset', target: { type: 'user', id: (ctx.params as { userId: number }).userId }, siteId: null }),
    handler: async (ctx) => {
      const row = await findStaffUser(ctx.db, { accountId: ctx.principal.accountId, userId: ctx.params.userId });
      if (!row) throw notFound(`Staff user ${ctx.params.userId} does not exist.`);
      const code = await createLink(ctx.db, { accountId: row.account_id, kind: 'reset', userId: row.id, now: ctx.now });
      return { status: 200, body: { resetUrl: linkUrl(linkBase(ctx), 'reset', code) } };
    },
  }),
  ...adminUserRoutes,
];
