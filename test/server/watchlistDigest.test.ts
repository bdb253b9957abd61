import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { WatchlistDigest, WatchlistEntry } from '../../shared/src/schemas/watchlist';
import { type KioskTestSite, type World, buildToken, buildWorld, kioskSite } from '../support/factories';
import { type ApiClient, apiClient } from '../support/http';
import { type TestServer, startTestServer } from '../support/testServer';

let server: TestServer;
let site: KioskTestSite;
let kiosk: ApiClient;
let stranger: World;

beforeAll(async () => {
  server = await startTestServer();
  site = await kioskSite(server);
  kiosk = apiClient(server.baseUrl, site.kioskToken);
  stranger = await buildWorld(server);
});
afterAll(async () => server?.close());

const WATCHLIST = '/v1/watchlist/people';
const digestPath = (siteId: number) => `/v1/sites/${siteId}/kiosk/watchlist-digest`;

async function addEntry(body: Record<string, string>, api: ApiClient = site.api): Promise<WatchlistEntry> {
  const response = await api.post<WatchlistEntry>(WATCHLIST, body);
  expect(response.status).toBe(201);
  return response.body;
}

async function readDigest(api: ApiClient = kiosk, siteId = site.siteId) {
  const response = await api.get<WatchlistDigest>(digestPath(siteId));
  expect(response.status).toBe(200);
  return response;
}

const hmac = (key: string, message: string) =>
  createHmac('sha256', Buffer.from(key, 'base64')).update(message).digest('hex');

describe('a KIOSK token created without scopes', () => {
  it('gets 403 on every watchlist endpoint, and can read the digest', async () => {
    const entry = await addEntry({ email: 'kiosk-cannot@example.com', reason: 'Not for tablets' });
    for (const response of [
      await kiosk.get<Problem>(WATCHLIST),
      await kiosk.post<Problem>(WATCHLIST, { email: 'sneaky@example.com' }),
      await kiosk.delete<Problem>(`${WATCHLIST}/${entry.entryId}`),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('INSUFFICIENT_SCOPE');
    }
    expect((await readDigest()).body.algorithm).toBe('HMAC-SHA256');
  });

  it('still checks people in (its own scopes are enough for the kiosk)', async () => {
    const created = await kiosk.post<PersonCheckin>(`/v1/sites/${site.siteId}/checkins/people`, {
      person: { firstName: 'Kay', lastName: 'Osk' },
    });
    expect(created.status).toBe(201);
  });
});

describe('GET /v1/sites/{siteId}/kiosk/watchlist-digest', () => {
  it('holds keyed hashes of the normalized identifiers, and no identifier, name or reason in plain', async () => {
    await addEntry({
      email: 'Mallory.Plain@Example.com',
      phone: '+44 (20) 7946-0958',
      firstName: 'Mallory',
      lastName: 'Plainname',
      reason: 'Trespassed in May',
    });
    const { body, text } = await readDigest();
    // Whole identifiers only: a short run of digits like "7946" turns up inside random hex now and then.
    for (const plain of ['mallory', 'plainname', 'example.com', '20) 7946', '442079460958', 'trespass']) {
      expect(text.toLowerCase()).not.toContain(plain);
    }
    expect(body.email).toContain(hmac(body.key, 'email:mallory.plain@example.com'));
    expect(body.phone).toContain(hmac(body.key, 'phone:442079460958'));
    expect(body.name).toContain(hmac(body.key, 'name:mallory plainname'));
    expect(Buffer.from(body.key, 'base64')).toHaveLength(32);
    for (const hashes of [body.email, body.phone, body.name]) expect(hashes).toEqual([...hashes].sort());
  });

  it('answers 304 to its own ETag until the watchlist changes, then the new digest', async () => {
    const first = await readDigest();
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await kiosk.get(digestPath(site.siteId), { headers: { 'If-None-Match': etag ?? '' } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);

    const entry = await addEntry({ phone: '555 0142' });
    const changed = await kiosk.get<WatchlistDigest>(digestPath(site.siteId), {
      headers: { 'If-None-Match': etag ?? '' },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.body.phone).toContain(hmac(changed.body.key, 'phone:5550142'));

    // A removal changes it too (the same count of entries as before must not look unchanged).
    expect((await site.api.delete(`${WATCHLIST}/${entry.entryId}`)).status).toBe(204);
    const removed = await readDigest();
    expect(removed.headers.get('etag')).toBe(etag);
    expect(removed.body.phone).not.toContain(hmac(removed.body.key, 'phone:5550142'));
  });

  it("is 404 for a token of another account (the same as for a site that does not exist), and never another account's list", async () => {
    const theirs = await addEntry({ email: 'their-own@example.com' }, stranger.api);
    const foreign = await stranger.api.get<Problem>(digestPath(site.siteId));
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
    expect((await kiosk.get<Problem>(digestPath(2_000_000_000))).status).toBe(404);
    // An own site outside the kiosk token's list is a 404 as well.
    expect((await kiosk.get<Problem>(digestPath(site.otherSiteId))).status).toBe(404);

    const mine = (await readDigest()).body;
    const own = (await readDigest(stranger.api, stranger.siteId)).body;
    expect(own.key).not.toBe(mine.key);
    expect(own.email).toContain(hmac(own.key, 'email:their-own@example.com'));
    expect(mine.email).not.toContain(hmac(mine.key, 'email:their-own@example.com'));
    expect((await stranger.api.delete(`${WATCHLIST}/${theirs.entryId}`)).status).toBe(204);
  });

  it('needs checkins:write (403 for a read-only token)', async () => {
    const reader = await buildToken(server, {
      accountId: await accountOf(site),
      siteIds: [site.siteId],
      scopes: ['checkins:read'],
    });
    const response = await apiClient(server.baseUrl, reader.token).get<Problem>(digestPath(site.siteId));
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('the server still decides: a check-in that matches an entry is STOP', async () => {
    await addEntry({ firstName: 'Eve', lastName: 'Listed' });
    const created = await kiosk.post<PersonCheckin>(`/v1/sites/${site.siteId}/checkins/people`, {
      person: { firstName: ' eve ', lastName: 'LISTED' },
    });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('STOP');
  });
});

async function accountOf(kioskTestSite: KioskTestSite): Promise<number> {
  const rows = await server.query('SELECT account_id FROM sites WHERE id = $1', [kioskTestSite.siteId]);
  return (rows as Array<{ account_id: number }>)[0]?.account_id ?? 0;
}
