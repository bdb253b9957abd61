// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { fullJitterBackoff } from '../../kiosk/src/sync/backoff';
import { buildKioskSite, drain, kioskServerForFile, openTestKiosk, sendTimes, serverPeople, until } from './harness';

const harness = kioskServerForFile();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** What `work` came to within `ms`, or 'still running'. */
const within = <T>(ms: number, work: Promise<T>) =>
  Promise.race([work, sleep(ms).then(() => 'still running' as const)]);

describe("the device cannot write down the server's answer (storage full)", () => {
  it('the pass ends and lets go of the sync lock, the queue backs off, and once writes work the answer is recorded: one check-in', async () => {
    const site = await buildKioskSite(harness.server);
    // Half the ceiling every time: the queue's pauses are 0.5 s, 1 s, 2 s… (not a random near-zero wait).
    const retryPolicy = fullJitterBackoff({ baseMs: 1_000, capMs: 60_000, random: () => 0.5 });
    const { kiosk, platform, network, databaseName } = openTestKiosk(harness.server, site, {
      online: false,
      retryPolicy,
    });
    kiosk.start();
    const ada = await kiosk.checkIn({ person: { firstName: 'Ada', lastName: 'Quota' } });
    if (!ada.ok) throw new Error(ada.message);
    const [queued] = await kiosk.db.outbox.toArray();
    // Every acknowledgement write fails, as IndexedDB does when the device's storage is full.
    const full = vi
      .spyOn(kiosk.db.outbox, 'bulkDelete')
      .mockRejectedValue(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));

    const sentAt = sendTimes(network);
    network.setOnline(true);
    expect(
      await within(
        5_000,
        kiosk.engine.syncNow().then(() => 'ended' as const),
      ),
    ).toBe('ended');
    expect(
      await within(
        5_000,
        platform.locks.withLock(`gatehouse-sync:${databaseName}`, async () => 'free' as const),
      ),
    ).toBe('free');
    expect(network.stats.sent).toBe(1);
    // Still queued with its key, for a later pass; that pass comes after a pause, not in a loop.
    expect(await kiosk.db.outbox.toArray()).toEqual([
      expect.objectContaining({ seq: queued?.seq, key: queued?.key, state: 'QUEUED' }),
    ]);
    await until(async () => network.stats.sent >= 2, 5_000);
    expect(sentAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(400);
    // Nothing more within 300 ms of it, judged by when requests went out (this test may look late).
    await sleep(Math.max(0, sentAt[1]! + 300 - Date.now()));
    expect(sentAt.filter((at) => at < sentAt[1]! + 300)).toHaveLength(2);

    full.mockRestore();
    await drain(kiosk, 10_000);
    expect(await kiosk.db.outbox.count()).toBe(0);
    const onServer = await serverPeople(site);
    expect(onServer.map((checkin) => [checkin.person.lastName, checkin.status])).toEqual([['Quota', 'IN']]);
    expect((await kiosk.db.people.get(ada.value.visitId))?.serverId).toBe(onServer[0]?.checkinId);
    await kiosk.close();
  });
});
