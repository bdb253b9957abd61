import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../shared/src/schemas/admin';
import { up } from '../../server/src/db/migrations/0023_kiosk_scopes';
import { buildAccount, buildSite, buildToken } from '../support/factories';
import { addKiosk } from '../support/kiosks';
import { runMigration } from '../support/migration';
import { type TestServer, startTestServer } from '../support/testServer';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const scopesOf = async (tokenId: number) => {
  const [rows] = await server.sequelize.query('SELECT scopes FROM api_tokens WHERE id = $1', { bind: [tokenId] });
  return [...((rows as Array<{ scopes: Scope[] }>)[0]?.scopes ?? [])].sort();
};

/** The §16 kiosk defaults every KIOSK token had before issue 31. */
const OLD: Scope[] = ['checkins:read', 'checkins:write', 'checkins:approve', 'vehicles:read', 'vehicles:write'];
const setOld = (tokenId: number, scopes: Scope[] = OLD) =>
  server.sequelize.query(`UPDATE api_tokens SET scopes = $1, channel = 'KIOSK' WHERE id = $2`, {
    bind: [scopes, tokenId],
  });

describe('migration 0023 (kiosk scopes by mode)', () => {
  it("gives each kiosk's token its mode's scope; a management API kiosk token the jobs it did; API tokens keep theirs", async () => {
    const account = await buildAccount(server);
    const site = await buildSite(server, account.accountId);
    const lobby = await addKiosk(server, { accountId: account.accountId, siteId: site.siteId, mode: 'visitor' });
    const gate = await addKiosk(server, { accountId: account.accountId, siteId: site.siteId, mode: 'gate' });
    const automated = await buildToken(server, { accountId: account.accountId, siteIds: [site.siteId] });
    const peopleOnly = await buildToken(server, { accountId: account.accountId, siteIds: [site.siteId] });
    const integrator = await buildToken(server, { accountId: account.accountId, scopes: OLD });
    for (const tokenId of [lobby.tokenId, gate.tokenId, automated.tokenId]) await setOld(tokenId);
    await setOld(peopleOnly.tokenId, ['checkins:read', 'checkins:write']);

    expect(await runMigration(server.sequelize, up)).toEqual([]);

    expect(await scopesOf(lobby.tokenId)).toEqual(['kiosk:visitor']);
    expect(await scopesOf(gate.tokenId)).toEqual(['kiosk:gate']);
    expect(await scopesOf(automated.tokenId)).toEqual(['kiosk:gate', 'kiosk:visitor']);
    expect(await scopesOf(peopleOnly.tokenId)).toEqual(['kiosk:visitor']);
    expect(await scopesOf(integrator.tokenId)).toEqual([...OLD].sort());
  });
});
