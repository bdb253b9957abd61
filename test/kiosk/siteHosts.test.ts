// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { Host } from '../../shared/src/schemas/hosts';
import { putCheckinConfig } from '../support/checkinConfig';
import { buildKioskSite, drain, kioskServerForFile, openTestKiosk, serverPeople } from './harness';

const harness = kioskServerForFile();
const MINUTES = 60_000;

describe("the site's hosts on the kiosk: pulled like the form, kept for offline", () => {
  it('caches the list 5 minutes, follows a change, serves the last list offline, and checks in by host id', async () => {
    const site = await buildKioskSite(harness.server);
    const addHost = async (name: string) => {
      const response = await site.api.post<Host>('/v1/hosts', { name, siteIds: [site.siteId] });
      expect(response.status, response.text).toBe(201);
      return response.body;
    };
    const grace = await addHost('Grace Hopper');
    await putCheckinConfig(
      site,
      [
        { name: 'firstName', label: 'First name', type: 'text', required: true },
        { name: 'lastName', label: 'Last name', type: 'text', required: true },
        { name: 'hostName', label: 'Who are you visiting?', type: 'host', required: true },
      ],
      false,
    );
    const { kiosk, platform, network } = openTestKiosk(harness.server, site);
    expect((await kiosk.siteConfig())?.config.fields.map((field) => field.type)).toContain('host');
    expect(await kiosk.siteHosts()).toEqual([{ hostId: grace.hostId, name: 'Grace Hopper' }]);
    const sent = network.stats.sent;
    await addHost('Alan Turing');
    platform.clock.shift(4 * MINUTES);
    expect((await kiosk.siteHosts()).map((host) => host.name)).toEqual(['Grace Hopper']);
    expect(network.stats.sent).toBe(sent);
    platform.clock.shift(2 * MINUTES);
    expect((await kiosk.siteHosts()).map((host) => host.name)).toEqual(['Alan Turing', 'Grace Hopper']);

    network.setOnline(false);
    // Older than the 5 minutes it is trusted for: still the list, with no server to ask.
    platform.clock.shift(10 * MINUTES);
    expect((await kiosk.siteHosts()).map((host) => host.name)).toEqual(['Alan Turing', 'Grace Hopper']);
    await kiosk.close();

    // Offline with the list kept: a check-in by host id is queued, and the server records the host's name.
    const lobby = openTestKiosk(harness.server, site);
    await lobby.kiosk.siteConfig();
    await lobby.kiosk.siteHosts();
    lobby.network.setOnline(false);
    lobby.kiosk.start();
    expect((await lobby.kiosk.siteHosts()).map((host) => host.name)).toEqual(['Alan Turing', 'Grace Hopper']);
    const refused = await lobby.kiosk.checkIn({ person: { firstName: 'Ada', lastName: 'NoHost' } });
    expect(refused).toMatchObject({ ok: false, errors: [{ path: 'hostId' }] });
    const queued = await lobby.kiosk.checkIn({
      person: { firstName: 'Ada', lastName: 'Lovelace' },
      hostId: grace.hostId,
      hostName: 'Grace Hopper',
    });
    expect(queued).toMatchObject({ ok: true, value: { hostName: 'Grace Hopper' } });
    lobby.network.setOnline(true);
    await drain(lobby.kiosk);
    const [visit] = await serverPeople(site);
    expect(visit).toMatchObject({ hostId: grace.hostId, hostName: 'Grace Hopper' });
    await lobby.kiosk.close();
  });
});
