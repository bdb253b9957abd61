import { ChangePasswordRequest, SessionResponse, SignInRequest } from '../../../../shared/src/schemas/staff';
import { clearSessionCookie, endSession, setSessionCookie } from '../../auth/sessions';
import { signIn } from '../../commands/signIn';
import { changePassword } from '../../commands/staffPasswords';
import { findStaffUser } from '../../db/staffUserRows';
import { problem } from '../../errors/problem';
import { presentStaffUser } from '../../presenters/staffUser';
import { type HandlerContext, defineRoute } from '../define';
import { sessionLinkRoutes } from './links';
import { staffUserExample } from '../staffExamples';

const tag = 'Session';

/** The signed-in user of a session route (the runner resolved the session). */
function userKey(ctx: Pick<HandlerContext<unknown, unknown, unknown>, 'principal'>) {
  const { principal } = ctx;
  if (principal.userId === null) throw problem('UNAUTHENTICATED', 'Sign in first.');
  return { accountId: principal.accountId, userId: principal.userId };
}

export const sessionRoutes = [
  defineRoute({
    method: 'POST',
    path: '/session',
    summary: 'Sign in with email and password: sets the gh_session cookie',
    description:
      'Signs a staff user in and sets the `gh_session` cookie (HttpOnly, SameSite=Strict, Path=/, Secure over HTTPS). A wrong email, a wrong password and a disabled user get the same 401. 5 failures for one email, or SIGNIN_FAILURES_PER_ADDRESS from one address, in 15 minutes: 429.',
    examples: {
      request: { email: 'rita@example.com', password: 'correct horse battery staple' },
      response: { user: staffUserExample },
    },
    tag,
    auth: 'none',
    body: SignInRequest,
    responses: { 200: SessionResponse },
    handler: async (ctx) => {
      const { user, sessionId } = await signIn(ctx.db, {
        email: ctx.body.email,
        password: ctx.body.password,
        address: ctx.koa.ip,
        now: ctx.now,
        failuresPerAddress: ctx.deps.env.SIGNIN_FAILURES_PER_ADDRESS,
      });
      setSessionCookie(ctx.koa, sessionId);
      return { status: 200, body: { user } };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/session',
    summary: 'The signed-in staff user',
    description: 'The staff user of the session cookie. A session ends after 12 idle hours, and 7 days after sign-in.',
    examples: { response: { user: staffUserExample } },
    tag,
    auth: 'session',
    responses: { 200: SessionResponse },
    handler: async (ctx) => {
      const row = await findStaffUser(ctx.db, userKey(ctx));
      if (!row) throw problem('UNAUTHENTICATED', 'Sign in first.');
      return { status: 200, body: { user: presentStaffUser(row) } };
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/session',
    summary: 'Sign out: the session ends and its cookie is cleared',
    description: 'Ends the session of the cookie and clears the cookie.',
    examples: { response: null },
    tag,
    auth: 'session',
    responses: { 204: null },
    handler: async (ctx) => {
      if (ctx.principal.session) await endSession(ctx.db, ctx.principal.session.idHash);
      clearSessionCookie(ctx.koa);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/session/password',
    summary: 'Change one’s own password: every other session of the user ends; this one gets a fresh cookie',
    description:
      "Changes the signed-in user's password: 12 to 256 characters, hard to guess (not white space only, not the user's email, name or account name, and strong by the zxcvbn estimate; else 422 saying why at `newPassword`). Every session of the user ends; the response sets a fresh cookie.",
    examples: {
      request: { currentPassword: 'correct horse battery staple', newPassword: 'a longer and better passphrase' },
      response: null,
    },
    tag,
    auth: 'session',
    body: ChangePasswordRequest,
    responses: { 204: null },
    audit: (ctx) => ({
      action: 'user.password_changed',
      target: { type: 'user', id: ctx.principal.actor.id },
      siteId: null,
    }),
    handler: async (ctx) => {
      const sessionId = await changePassword(ctx.db, {
        ...userKey(ctx),
        currentPassword: ctx.body.currentPassword,
        newPassword: ctx.body.newPassword,
        now: ctx.now,
      });
      // Set on the response itself, never in the reply an Idempotency-Key stores: a session id is a secret.
      setSessionCookie(ctx.koa, sessionId);
      return { status: 204 };
    },
  }),
  ...sessionLinkRoutes,
];
