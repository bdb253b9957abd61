import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../shared/src/client';
import { defaultCheckinConfig } from '../../shared/src/schemas/sites';
import { queryRows } from '../../server/src/db/query';
import { listAllSites } from '../../kiosk/src/data/siteList';
import { buildAccount, buildToken } from '../support/factories';
import { kioskServerForFile } from './harness';
import { sql } from '../../server/src/db/sql';

const harness = kioskServerForFile();

describe("the setup screen's list of sites", () => {
  it('has every site the token can view, past the first page of 200', async () => {
    const { accountId } = await buildAccount(harness.server);
    const made = await queryRows<{ id: number }>(
      harness.server.database,
      sql`INSERT INTO sites (account_id, name, checkin_config)
       SELECT ${accountId}, 'Gate ' || g, ${JSON.stringify(defaultCheckinConfig)}::jsonb FROM generate_series(1, 205) AS g RETURNING id`,
    );
    // An integrator's token with every site (a kiosk's own token has one site: issue 31).
    const { token } = await buildToken(harness.server, { accountId, scopes: [] });
    const api = createApiClient({
      baseUrl: harness.server.baseUrl,
      token,
      fetch: (url, init) => fetch(url, init),
      now: () => Date.now(),
    });
    const listed = await listAllSites(api);
    expect(listed.kind).toBe('ok');
    if (listed.kind !== 'ok') return;
    expect(listed.value.data.map((site) => site.siteId).sort((a, b) => a - b)).toEqual(
      made.map((row) => row.id).sort((a, b) => a - b),
    );

    // A token the server refuses: the refusal, not an empty list.
    const refused = await listAllSites(
      createApiClient({
        baseUrl: harness.server.baseUrl,
        token: 'ck_0',
        fetch: (url, init) => fetch(url, init),
        now: () => Date.now(),
      }),
    );
    expect(refused).toMatchObject({ kind: 'refused', status: 401 });
  });
});
