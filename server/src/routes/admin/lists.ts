import { AccountPage, AdminSitePage } from '../../../../shared/src/schemas/admin';
import { PageQuery } from '../../../../shared/src/schemas/common';
import { TokenPage } from '../../../../shared/src/schemas/tokens';
import { checkAccount, listAccountSites, listAccounts } from '../../queries/accountLists';
import { listTokens } from '../../queries/tokenList';
import { defineRoute } from '../define';
import { pageOf, tokenExample } from '../examples';
import { AccountParams } from '../params';

const tag = 'Management (ADMIN_TOKEN)';

/** What the operator can read of the installation: accounts, their sites and live tokens. */
export const adminListRoutes = [
  defineRoute({
    method: 'GET',
    path: '/admin/accounts',
    summary: 'The accounts of the installation, by id',
    description: 'Every account, oldest first (keyset pages).',
    examples: { response: pageOf({ accountId: 1, name: 'ACME Logistics' }) },
    tag,
    auth: 'admin',
    query: PageQuery,
    responses: { 200: AccountPage },
    handler: async ({ db, query }) => ({ status: 200, body: await listAccounts(db, query) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/admin/accounts/:accountId/sites',
    summary: "An account's sites, by id",
    description: 'Every site of the account, archived ones too, oldest first. An unknown account is a 404.',
    examples: { response: pageOf({ siteId: 1, accountId: 1, name: 'Head office', timezone: 'Europe/Berlin' }) },
    tag,
    auth: 'admin',
    params: AccountParams,
    query: PageQuery,
    responses: { 200: AdminSitePage },
    handler: async ({ db, params, query }) => ({
      status: 200,
      body: await listAccountSites(db, params.accountId, query),
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/admin/accounts/:accountId/tokens',
    summary: "An account's tokens that are not revoked, newest first",
    description:
      'Every live token of the account (API and KIOSK), newest first, never with its secret. An unknown account is a 404.',
    examples: { response: pageOf(tokenExample) },
    tag,
    auth: 'admin',
    params: AccountParams,
    query: PageQuery,
    responses: { 200: TokenPage },
    handler: async ({ db, params, query }) => {
      await checkAccount(db, params.accountId);
      return {
        status: 200,
        body: await listTokens(db, { accountId: params.accountId, limit: query.limit, cursor: query.cursor }),
      };
    },
  }),
];
