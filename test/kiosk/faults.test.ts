// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../kiosk/src/platform/testPlatform';
import { expectServerToMatch, playDay } from './day';
import {
  buildKioskSite,
  drain,
  kioskServerForFile,
  onNetworkStats,
  openTestKiosk,
  serverPeople,
  until,
} from './harness';

const harness = kioskServerForFile();

const HOURS = 3_600_000;

describe('exactly once through a bad network', () => {
  it('30% of requests lost and 30% of answers lost after the server committed: still each action exactly once', async () => {
    const site = await buildKioskSite(harness.server);
    const { kiosk, platform, network } = openTestKiosk(harness.server, site, {
      online: false,
      clockOffsetMs: -8 * HOURS,
      random: seededRandom(7),
    });
    kiosk.start();
    const { expected, actions } = await playDay(kiosk, platform.clock, 40, 'Faulty');

    network.setFaults({ failRequests: 0.3, dropResponses: 0.3 });
    network.setOnline(true);
    await drain(kiosk, 60_000);

    expect(await kiosk.db.outbox.count()).toBe(0);
    expectServerToMatch(await serverPeople(site), expected);
    // The faults really happened: answers were lost after the server acted, and those requests were sent again.
    expect(network.stats.sent - network.stats.delivered).toBeGreaterThan(actions * 0.15);
    expect(network.stats.delivered).toBeGreaterThanOrEqual(actions);
    await kiosk.close();
  });
});

describe('a restart in the middle of a sync', () => {
  it('a new engine on the same database, after the old one died with answers in flight, loses and duplicates nothing', async () => {
    const site = await buildKioskSite(harness.server);
    const first = openTestKiosk(harness.server, site, { online: false, clockOffsetMs: -6 * HOURS, concurrency: 6 });
    first.kiosk.start();
    const { expected } = await playDay(first.kiosk, first.platform.clock, 30, 'Restart');

    // The process dies with requests on the wire (checked in the tick a request is sent or answered, so some
    // surely are: polling for that moment could miss it on a loaded machine, with every answer in by then):
    // they reach the server, their answers are never read.
    let frozen = false;
    onNetworkStats(first.network, ({ sent, delivered }) => {
      if (frozen || delivered < 25 || sent <= delivered) return;
      first.network.freeze();
      frozen = true;
    });
    first.network.setOnline(true);
    await until(async () => frozen);
    const remaining = await first.kiosk.db.outbox.count();
    expect(remaining).toBeGreaterThan(0);

    const second = openTestKiosk(harness.server, site, { databaseName: first.databaseName, clockOffsetMs: -6 * HOURS });
    second.kiosk.start();
    await drain(second.kiosk);
    expect(await second.kiosk.db.outbox.count()).toBe(0);
    expectServerToMatch(await serverPeople(site), expected);
    expect(first.network.stats.sent).toBeGreaterThan(first.network.stats.delivered);
    await second.kiosk.close();
  });

  it('restarts while offline keep the queue: a new engine sends what the old one queued', async () => {
    const site = await buildKioskSite(harness.server);
    const first = openTestKiosk(harness.server, site, { online: false, clockOffsetMs: -2 * HOURS });
    first.kiosk.start();
    const { expected, actions } = await playDay(first.kiosk, first.platform.clock, 8, 'Reload');
    await first.kiosk.close();

    const second = openTestKiosk(harness.server, site, { databaseName: first.databaseName, online: true });
    expect(await second.kiosk.db.outbox.count()).toBe(actions);
    second.kiosk.start();
    await until(async () => (await second.kiosk.db.outbox.count()) === 0);
    expectServerToMatch(await serverPeople(site), expected);
    await second.kiosk.close();
  });
});
