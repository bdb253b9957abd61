// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SyncStatus } from '../../kiosk/src/sync/status';
import { expectServerToMatch, playDay } from './day';
import { type KioskSite, buildKioskSite, kioskServerForFile, openTestKiosk, serverPeople, until } from './harness';

const harness = kioskServerForFile();

const HOURS = 3_600_000;

describe('a day offline, then online', () => {
  let site: KioskSite;
  beforeAll(async () => {
    site = await buildKioskSite(harness.server);
  });

  it('confirms every action at once offline, then gives the server exactly those visits, breaks and checkouts at their times', async () => {
    const { kiosk, platform, network } = openTestKiosk(harness.server, site, {
      online: false,
      clockOffsetMs: -10 * HOURS,
    });
    const statuses: SyncStatus[] = [];
    const stop = kiosk.status.subscribe((status) => statuses.push(status));
    kiosk.start();

    const { expected, actions } = await playDay(kiosk, platform.clock, 24, 'Offline');
    expect(await kiosk.db.outbox.count()).toBe(actions);
    expect(network.stats.sent).toBe(0);
    expect(await serverPeople(site)).toEqual([]);
    await until(async () => statuses.at(-1)?.pending === actions);
    expect(statuses.at(-1)).toMatchObject({ online: false, text: `${actions} pending` });

    // Coming online is the trigger: nobody calls sync.
    network.setOnline(true);
    // Dozens of requests: a couple of seconds alone, many more beside three other test files on two cores.
    await until(async () => (await kiosk.db.outbox.count()) === 0, 40_000);
    expectServerToMatch(await serverPeople(site), expected);
    await until(async () => statuses.at(-1)?.text === 'All synced' && statuses.at(-1)?.online === true);

    // The roll call (local) now shows who the server says is on site, with the server's ids.
    await kiosk.engine.syncNow();
    // Every answer came (none lost): waited for, as a request the engine sent by itself may still be on its way.
    await until(async () => network.stats.delivered === network.stats.sent, 10_000);
    const onSite = (await serverPeople(site)).filter((checkin) => checkin.status !== 'OUT');
    const local = await kiosk.findPeople('');
    expect(local.map((visit) => visit.serverId).sort()).toEqual(onSite.map((checkin) => checkin.checkinId).sort());
    stop();
    await kiosk.close();
  }, 60_000);
});
