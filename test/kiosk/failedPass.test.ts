// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { fullJitterBackoff } from '../../kiosk/src/sync/backoff';
import { buildKioskSite, kioskServerForFile, openTestKiosk, serverPeople, until } from './harness';

const harness = kioskServerForFile();

describe("a sync pass that throws (the device's storage fails under it)", () => {
  it('counts as a failed pass: the engine tries again by itself after a growing pause, never in a loop, and the queue goes once storage works', async () => {
    const site = await buildKioskSite(harness.server);
    // Half the ceiling every time: the queue's pauses are 0.5 s, 1 s, 2 s… (not a random near-zero wait).
    // The harness's periodic pull is a minute away: only the engine's own retry can bring the queue back here.
    const retryPolicy = fullJitterBackoff({ baseMs: 1_000, capMs: 60_000, random: () => 0.5 });
    const { kiosk, network } = openTestKiosk(harness.server, site, { online: false, retryPolicy });
    kiosk.start();
    const ada = await kiosk.checkIn({ person: { firstName: 'Ada', lastName: 'Broken' } });
    if (!ada.ok) throw new Error(ada.message);
    // Reading the outbox fails twice, as IndexedDB does when the device's storage breaks, then works again.
    const broken = new DOMException(
      'The operation failed for reasons unrelated to the database itself.',
      'UnknownError',
    );
    // Each read's time is taken as it is made: found by polling, a loaded machine could see it hundreds of ms
    // late and misjudge the pauses between them.
    const readAt: number[] = [];
    /** What had been sent when each read was made. */
    const sentAtRead: number[] = [];
    const toArray = kiosk.db.outbox.toArray.bind(kiosk.db.outbox);
    vi.spyOn(kiosk.db.outbox, 'toArray').mockImplementation(((...args: Parameters<typeof toArray>) => {
      readAt.push(Date.now());
      sentAtRead.push(network.stats.sent);
      return readAt.length <= 2 ? Promise.reject(broken) : toArray(...args);
    }) as typeof toArray);

    network.setOnline(true);
    // No kick, no syncNow: the engine comes back by itself, after the pause, and not before.
    await until(async () => readAt.length >= 2, 5_000);
    expect(readAt[1]! - readAt[0]!).toBeGreaterThanOrEqual(400);

    // Storage works again: the next pass, a longer pause later (never in a loop), sends the check-in.
    await until(async () => network.stats.sent >= 1 && (await kiosk.db.outbox.count()) === 0, 10_000);
    expect(readAt[2]! - readAt[1]!).toBeGreaterThanOrEqual(900);
    // Nothing was sent while storage failed.
    expect(sentAtRead[2]).toBe(0);
    const onServer = await serverPeople(site);
    expect(onServer.map((checkin) => [checkin.person.lastName, checkin.status])).toEqual([['Broken', 'IN']]);
    expect((await kiosk.db.people.get(ada.value.visitId))?.serverId).toBe(onServer[0]?.checkinId);
    await kiosk.close();
  });
});
