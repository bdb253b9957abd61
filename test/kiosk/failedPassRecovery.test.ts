// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { fullJitterBackoff } from '../../kiosk/src/sync/backoff';
import { buildKioskSite, kioskServerForFile, openTestKiosk, until } from './harness';
import type * as Schedule from '../../kiosk/src/sync/schedule';

// The engine's schedule read can be made to fail, as reading the outbox does when the device's storage breaks.
const scheduleFault = vi.hoisted(() => ({ failNext: 0 }));
vi.mock('../../kiosk/src/sync/schedule', async (importOriginal) => {
  const actual = await importOriginal<typeof Schedule>();
  return {
    ...actual,
    async nextRetryAt(...args: Parameters<typeof actual.nextRetryAt>) {
      if (scheduleFault.failNext > 0) {
        scheduleFault.failNext -= 1;
        throw new DOMException('The operation failed for reasons unrelated to the database itself.', 'UnknownError');
      }
      return actual.nextRetryAt(...args);
    },
  };
});

const harness = kioskServerForFile();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const broken = () =>
  new DOMException('The operation failed for reasons unrelated to the database itself.', 'UnknownError');
// Half the ceiling every time: pauses of 0.5 s, 1 s, 2 s… after one, two, three failed passes in a row.
const halfJitter = (baseMs = 1_000) => fullJitterBackoff({ baseMs, capMs: 60_000, random: () => 0.5 });

describe('the sync engine after a pass that failed', () => {
  it('pulls with its next pass when the pull itself threw, not only when the periodic pull comes round', async () => {
    const site = await buildKioskSite(harness.server);
    const grace = await site.api.post(`/v1/sites/${site.siteId}/checkins/people`, {
      person: { firstName: 'Grace', lastName: 'Pulled' },
    });
    expect(grace.status).toBe(201);
    // The harness's periodic pull is a minute away: only the engine's own retry can bring Grace in.
    const { kiosk, platform } = openTestKiosk(harness.server, site, { retryPolicy: halfJitter() });
    // Timers fire a little early by the wall clock, as they may in Node and browsers: the pass the pause's
    // timer wakes finds the pause not quite over.
    const setTimer = platform.clock.setTimer.bind(platform.clock);
    vi.spyOn(platform.clock, 'setTimer').mockImplementation((ms, callback) => setTimer(Math.max(0, ms - 5), callback));
    const writes = vi.spyOn(kiosk.db.people, 'bulkPut').mockRejectedValueOnce(broken());
    kiosk.start();
    await until(async () => writes.mock.calls.length >= 1, 5_000);
    expect(await kiosk.db.people.count()).toBe(0);
    // The failed pass pauses the queue for 0.5 s; the pass after it pulls again.
    await until(async () => (await kiosk.db.people.count()) === 1, 5_000);
    expect((await kiosk.db.people.toArray()).map((visit) => visit.person.lastName)).toEqual(['Pulled']);
    await kiosk.close();
  });

  it('counts a pass once when its push failed and its schedule then threw: one step of backoff, not two', async () => {
    const site = await buildKioskSite(harness.server);
    // Pauses of 2 s, 4 s…: one step and two are told apart by 2 s, a margin a loaded machine's late timers and
    // slow IndexedDB do not eat (with 0.5 s against 1 s they did).
    const { kiosk, network } = openTestKiosk(harness.server, site, {
      online: false,
      retryPolicy: halfJitter(4_000),
    });
    kiosk.start();
    // Three visits, so the pass stops as "server unreachable" (three unanswered visits in a row): a failed pass.
    for (const lastName of ['One', 'Two', 'Three']) {
      const queued = await kiosk.checkIn({ person: { firstName: 'Queued', lastName } });
      if (!queued.ok) throw new Error(queued.message);
    }
    network.setFaults({ failRequests: 1, dropResponses: 0 });
    scheduleFault.failNext = 1;
    network.setOnline(true);
    await until(async () => scheduleFault.failNext === 0, 5_000);
    const failedAt = Date.now();
    network.setFaults({ failRequests: 0, dropResponses: 0 });
    // One failed pass: the queue waits 2 s (each visit's own backoff is 2 s too). Counted twice, 4 s.
    await until(async () => network.stats.sent >= 1, 10_000);
    const resumedAfter = Date.now() - failedAt;
    expect(resumedAfter).toBeGreaterThanOrEqual(1_000);
    expect(resumedAfter).toBeLessThan(3_500);
    await until(async () => (await kiosk.db.outbox.count()) === 0, 10_000);
    await sleep(50);
    await kiosk.close();
  });
});
