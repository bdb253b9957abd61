import { z } from 'zod';
import { LinkInfo, RedeemLinkRequest, SessionResponse, SetupRequest } from '../../../../shared/src/schemas/staff';
import { setSessionCookie } from '../../auth/sessions';
import { findLiveLink } from '../../commands/staffLinks';
import { redeemInvitation, redeemSetup } from '../../commands/staffOnboarding';
import { notFound } from '../../errors/problem';
import { defineRoute } from '../define';
import { linkCodeExample, staffUserExample } from '../staffExamples';

const tag = 'Session';
const CodeParams = z.strictObject({ code: z.string().max(100) });

export const sessionLinkRoutes = [
  defineRoute({
    method: 'GET',
    path: '/session/links/:code',
    summary: 'What a one-time link (setup, invitation, reset) is for, while it works',
    description:
      'What a one-time link is for (its kind, the invited user and the account), while it is unused and unexpired; otherwise 404.',
    examples: {
      response: { kind: 'invitation', email: 'rita@example.com', name: 'Rita Reception', accountName: 'Demo Company' },
    },
    tag,
    auth: 'none',
    params: CodeParams,
    responses: { 200: LinkInfo },
    handler: async (ctx) => {
      const link = await findLiveLink(ctx.db, ctx.params.code, ctx.now);
      if (!link) throw notFound('This link is unknown, used or expired: ask for a new one.');
      return { status: 200, body: link.info };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/session/setup',
    summary: 'Redeem a setup link: creates the account’s first owner and signs them in',
    description:
      'Redeems a setup link (24 h, single use, only while the account has no owner): creates its first owner and sets the session cookie.',
    examples: {
      request: {
        code: linkCodeExample,
        name: 'Olive Owner',
        email: 'olive@example.com',
        password: 'olive keeps the keys',
      },
      response: {
        user: {
          ...staffUserExample,
          email: 'olive@example.com',
          name: 'Olive Owner',
          role: 'owner',
          siteIds: [],
          allSites: true,
        },
      },
    },
    conflict: { codes: ['EMAIL_TAKEN: a staff user has this email'] },
    tag,
    auth: 'none',
    body: SetupRequest,
    responses: { 201: SessionResponse },
    handler: async (ctx) => {
      const { user, sessionId } = await redeemSetup(ctx.db, { ...ctx.body, now: ctx.now, requestId: ctx.requestId });
      setSessionCookie(ctx.koa, sessionId);
      return { status: 201, body: { user } };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/session/invitation',
    summary: 'Redeem an invitation or password-reset link: sets the password and signs the user in',
    description:
      "Redeems an invitation (72 h) or a password-reset link (24 h): sets the password (and the name, if sent), ends the user's other sessions and sets the session cookie.",
    examples: {
      request: { code: linkCodeExample, password: 'correct horse battery staple' },
      response: { user: staffUserExample },
    },
    tag,
    auth: 'none',
    body: RedeemLinkRequest,
    responses: { 200: SessionResponse },
    handler: async (ctx) => {
      const { user, sessionId } = await redeemInvitation(ctx.db, {
        ...ctx.body,
        now: ctx.now,
        requestId: ctx.requestId,
      });
      setSessionCookie(ctx.koa, sessionId);
      return { status: 200, body: { user } };
    },
  }),
];
