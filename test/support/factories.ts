import type { Scope } from '../../shared/src/schemas/admin';
import type { Channel } from '../../shared/src/schemas/common';
import type { KioskMode } from '../../shared/src/schemas/kiosks';
import { createAccount, createSite, createToken } from '../../server/src/commands/provisioning';
import { type ApiClient, apiClient } from './http';
import type { TestServer } from './testServer';

/** What factories need: the database, and where the API listens (for the client they hand out). */
type Harness = Pick<TestServer, 'database' | 'baseUrl'>;

let counter = 0;
const unique = (prefix: string) => `${prefix} ${++counter}`;

export async function buildAccount(server: Harness, name = unique('Account')) {
  return createAccount(server.database, name);
}

export async function buildSite(server: Harness, accountId: number, name = unique('Site')) {
  return createSite(server.database, { accountId, name });
}

export async function buildToken(
  server: Harness,
  input: {
    accountId: number;
    siteIds?: number[];
    allSites?: boolean;
    scopes?: Scope[];
    channel?: Channel;
    mode?: KioskMode;
    expiresAt?: string;
    name?: string;
  },
) {
  return createToken(server.database, { name: unique('Token'), allSites: input.siteIds === undefined, ...input });
}

export interface World {
  accountId: number;
  siteId: number;
  otherSiteId: number;
  token: string;
  api: ApiClient;
}

/** An account with two sites and an all-sites token with every scope, plus a client using it. */
export async function buildWorld(server: Harness): Promise<World> {
  const account = await buildAccount(server);
  const site = await buildSite(server, account.accountId);
  const other = await buildSite(server, account.accountId);
  const token = await buildToken(server, {
    accountId: account.accountId,
    allSites: true,
    scopes: [
      'checkins:read',
      'checkins:write',
      'checkins:approve',
      'vehicles:read',
      'vehicles:write',
      'labels:write',
      'sites:configure',
      'webhooks:manage',
      'watchlist:manage',
      'hosts:manage',
      'invitations:read',
      'invitations:write',
    ],
  });
  return {
    accountId: account.accountId,
    siteId: site.siteId,
    otherSiteId: other.siteId,
    token: token.token,
    api: apiClient(server.baseUrl, token.token),
  };
}

/** A site a kiosk is paired with: a new account's, a kiosk token for it alone, an integrator client. */
export interface KioskTestSite {
  accountId: number;
  siteId: number;
  /** The account's other site, which the kiosk token cannot see. */
  otherSiteId: number;
  kioskToken: string;
  kioskTokenId: number;
  api: ApiClient;
}

/** A site with a kiosk token of `mode` (visitor by default: a gate's token cannot check people in). */
export async function kioskSite(server: Harness, name?: string, mode: KioskMode = 'visitor'): Promise<KioskTestSite> {
  const world = await buildWorld(server);
  const site = await buildSite(server, world.accountId, name);
  const token = await buildToken(server, {
    accountId: world.accountId,
    siteIds: [site.siteId],
    channel: 'KIOSK',
    mode,
  });
  return {
    accountId: world.accountId,
    siteId: site.siteId,
    otherSiteId: world.otherSiteId,
    kioskToken: token.token,
    kioskTokenId: token.tokenId,
    api: world.api,
  };
}

/** A valid person check-in body. */
export const visitor = (firstName = 'Ada', lastName = 'Lovelace', extra: Record<string, unknown> = {}) => ({
  person: { firstName, lastName },
  ...extra,
});
