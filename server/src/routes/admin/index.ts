import {
  Account,
  AdminSite,
  CreateAccountRequest,
  CreateSiteRequest,
  CreateTokenRequest,
  CreatedToken,
  Token,
  UpdateTokenRequest,
} from '../../../../shared/src/schemas/admin';
import { createAccount, createSite, createToken, revokeToken, updateToken } from '../../commands/provisioning';
import { validationFailed } from '../../errors/problem';
import { defineRoute } from '../define';
import { AccountParams, TokenParams } from '../params';

const tag = 'Management (ADMIN_TOKEN)';

export const adminRoutes = [
  defineRoute({
    method: 'POST',
    path: '/admin/accounts',
    summary: 'Create an account',
    tag,
    auth: 'admin',
    body: CreateAccountRequest,
    responses: { 201: Account },
    handler: async ({ db, body }) => ({ status: 201, body: await createAccount(db, body.name) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/admin/accounts/:accountId/sites',
    summary: 'Create a site in an account (with the default check-in configuration)',
    tag,
    auth: 'admin',
    params: AccountParams,
    body: CreateSiteRequest,
    responses: { 201: AdminSite },
    handler: async ({ db, params, body }) => ({
      status: 201,
      body: await createSite(db, { accountId: params.accountId, name: body.name, timezone: body.timezone }),
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/admin/accounts/:accountId/tokens',
    summary: 'Issue a token (the plaintext token is shown only in this response)',
    tag,
    auth: 'admin',
    params: AccountParams,
    body: CreateTokenRequest,
    responses: { 201: CreatedToken },
    handler: async ({ db, params, body, now }) => {
      // A token already expired when issued could never be used: a mistake in the request, not a token.
      if (body.expiresAt !== undefined && new Date(body.expiresAt) <= now) {
        throw validationFailed([{ path: 'expiresAt', message: 'Must be in the future' }]);
      }
      return { status: 201, body: await createToken(db, { accountId: params.accountId, ...body }) };
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/admin/tokens/:tokenId',
    summary: "Change a token's sites or scopes (effective on its next request)",
    tag,
    auth: 'admin',
    params: TokenParams,
    body: UpdateTokenRequest,
    responses: { 200: Token },
    handler: async ({ db, params, body }) => ({ status: 200, body: await updateToken(db, params.tokenId, body) }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/admin/tokens/:tokenId',
    summary: 'Revoke a token at once',
    tag,
    auth: 'admin',
    params: TokenParams,
    responses: { 204: null },
    handler: async ({ db, params, now }) => {
      await revokeToken(db, params.tokenId, now);
      return { status: 204 };
    },
  }),
];
