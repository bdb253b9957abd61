// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { WatchlistEntry } from '../../shared/src/schemas/watchlist';
import { saveSettings } from '../../kiosk/src/data/settings';
import { onWatchlist } from '../../kiosk/src/data/watchlist';
import { type KioskSite, buildKioskSite, drain, openTestKiosk, serverPeople, kioskServerForFile } from './harness';

const harness = kioskServerForFile();

async function watchlist(site: KioskSite, body: Record<string, string>): Promise<WatchlistEntry> {
  const response = await site.api.post<WatchlistEntry>('/v1/watchlist/people', body);
  expect(response.status).toBe(201);
  return response.body;
}

describe('the kiosk tells a watchlisted visitor from its digest, before the server answers', () => {
  it('offline: a check-in matching by name, email or phone is STOP at once; others are IN', async () => {
    const site = await buildKioskSite(harness.server);
    await watchlist(site, { firstName: 'Mallory', lastName: 'Mole', reason: 'Took a laptop' });
    await watchlist(site, { email: 'eve@example.com' });
    await watchlist(site, { phone: '+1 (555) 010-0199' });
    const { kiosk, network } = openTestKiosk(harness.server, site);
    kiosk.start();
    await kiosk.engine.syncNow();
    network.setOnline(false);

    const checkIn = async (person: Record<string, string>) => {
      const result = await kiosk.checkIn({ person: { firstName: 'Some', lastName: 'One', ...person } });
      if (!result.ok) throw new Error(result.message);
      return result.value.status;
    };
    // The same normalization as the server: case, spaces, and a phone's punctuation do not matter.
    expect(await checkIn({ firstName: ' MALLORY', lastName: 'mole ' })).toBe('STOP');
    expect(await checkIn({ email: 'Eve@Example.COM' })).toBe('STOP');
    expect(await checkIn({ phone: '1 555 010 0199' })).toBe('STOP');
    expect(await checkIn({ firstName: 'Mallory', lastName: 'Other' })).toBe('IN');

    // The server agrees when the actions reach it.
    network.setOnline(true);
    await drain(kiosk);
    expect((await serverPeople(site)).map((checkin) => checkin.status).sort()).toEqual(['IN', 'STOP', 'STOP', 'STOP']);
    await kiosk.close();
  });

  it('keeps only hashes on the device: no name, email, phone or reason of the watchlist', async () => {
    const site = await buildKioskSite(harness.server);
    await watchlist(site, {
      firstName: 'Mallory',
      lastName: 'Mole',
      email: 'mallory@example.com',
      phone: '555 0177',
      reason: 'Took a laptop',
    });
    const { kiosk } = openTestKiosk(harness.server, site);
    kiosk.start();
    await kiosk.engine.syncNow();
    const kept = JSON.stringify(await kiosk.db.watchlistDigests.toArray());
    expect(kept).toMatch(/[0-9a-f]{64}/);
    for (const plain of ['Mallory', 'mallory', 'Mole', 'mole', 'example.com', '5550177', 'laptop'])
      expect(kept).not.toContain(plain);
    expect(await onWatchlist(kiosk.db, site.siteId, { email: 'MALLORY@example.com' })).toBe(true);
    expect(await onWatchlist(kiosk.db, site.siteId, { email: 'someone@example.com' })).toBe(false);
    await kiosk.close();
  });

  it("a digest fetched before the entry misses it: the server's STOP still decides, and the kiosk keeps it", async () => {
    const site = await buildKioskSite(harness.server);
    const { kiosk, network } = openTestKiosk(harness.server, site);
    kiosk.start();
    await kiosk.engine.syncNow();
    network.setOnline(false);
    await watchlist(site, { firstName: 'Late', lastName: 'Listed' });
    const result = await kiosk.checkIn({ person: { firstName: 'Late', lastName: 'Listed' } });
    if (!result.ok) throw new Error(result.message);
    expect(result.value.status).toBe('IN');

    network.setOnline(true);
    await drain(kiosk);
    expect((await serverPeople(site))[0]?.status).toBe('STOP');
    expect((await kiosk.db.people.get(result.value.visitId))?.status).toBe('STOP');
    // And the next pull brought the entry: the next such visitor is told at once.
    network.setOnline(false);
    const next = await kiosk.checkIn({ person: { firstName: 'late', lastName: 'listed' } });
    expect(next.ok && next.value.status).toBe('STOP');
    await kiosk.close();
  });

  it('revalidates with its ETag (a 304 keeps the copy) and forgets the digest when the pairing moves', async () => {
    const site = await buildKioskSite(harness.server);
    await watchlist(site, { email: 'kept@example.com' });
    const { kiosk } = openTestKiosk(harness.server, site);
    kiosk.start();
    await kiosk.engine.syncNow();
    const first = await kiosk.db.watchlistDigests.get(site.siteId);
    expect(first?.etag).toMatch(/^"/);
    await kiosk.engine.syncNow();
    const second = await kiosk.db.watchlistDigests.get(site.siteId);
    expect(second?.digest).toEqual(first?.digest);
    expect(second?.fetchedAt).toBeGreaterThanOrEqual(first?.fetchedAt ?? Infinity);

    // Paired with another site (or unpaired), the device forgets the account's digest with the rest.
    expect(
      await saveSettings(kiosk.db, {
        serverUrl: harness.server.baseUrl,
        token: site.kioskToken,
        siteId: site.siteId + 1,
        mode: 'visitor',
      }),
    ).toEqual({ ok: true });
    expect(await kiosk.db.watchlistDigests.count()).toBe(0);
    await kiosk.close();
  });
});
