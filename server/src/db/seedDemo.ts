import { createAccount, createSite, createToken } from '../commands/provisioning';
import { type Executor, inTransaction, queryOne } from './query';
import { sql } from './sql';

export interface DemoData {
  accountId: number;
  sites: Array<{ siteId: number; name: string }>;
  integratorToken: string;
  kioskToken: string;
}

/** On an empty database: a demo account with two sites, an integrator token and a paired kiosk (and its token). */
export async function seedDemo(database: Executor): Promise<DemoData | undefined> {
  return inTransaction(database, async (db) => {
    // Two instances starting on one empty database must not both seed.
    await queryOne(db, sql`LOCK TABLE accounts IN EXCLUSIVE MODE`);
    const any = await queryOne(db, sql`SELECT 1 AS found FROM accounts LIMIT 1`);
    if (any) return undefined;
    const account = await createAccount(db, 'Demo Company');
    const hq = await createSite(db, { accountId: account.accountId, name: 'Headquarters', timezone: 'Europe/London' });
    const warehouse = await createSite(db, {
      accountId: account.accountId,
      name: 'Warehouse',
      timezone: 'Europe/London',
    });
    const integrator = await createToken(db, {
      accountId: account.accountId,
      name: 'Demo integrator',
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
      ],
      channel: 'API',
    });
    // A visitor kiosk's token carries only what a lobby tablet does (it lives on a public tablet).
    const kiosk = await createToken(db, {
      accountId: account.accountId,
      name: 'Demo lobby kiosk',
      siteIds: [hq.siteId],
      channel: 'KIOSK',
      mode: 'visitor',
    });
    // Its kiosk, paired already (its token is printed), so the console's Kiosks page lists it.
    await queryOne(
      db,
      sql`INSERT INTO kiosks (account_id, site_id, mode, name, token_id, created_at, paired_at)
          VALUES (${account.accountId}, ${hq.siteId}, 'visitor', ${kiosk.name}, ${kiosk.tokenId}, now(), now())`,
    );
    return {
      accountId: account.accountId,
      sites: [hq, warehouse].map((site) => ({ siteId: site.siteId, name: site.name })),
      integratorToken: integrator.token,
      kioskToken: kiosk.token,
    };
  });
}
