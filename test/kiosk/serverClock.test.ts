// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { HttpOutcome } from '../../shared/src/client/http';
import { KioskDatabase } from '../../kiosk/src/data/database';
import { openKiosk } from '../../kiosk/src/kiosk';
import { createMemoryLock } from '../../kiosk/src/platform/memoryLock';
import { testNetwork, testPlatform } from '../../kiosk/src/platform/testPlatform';
import { type StampCheck, decide } from '../../kiosk/src/sync/decide';
import { guardedLoop } from '../../kiosk/src/sync/guardedLoop';
import { serverClock } from '../../kiosk/src/sync/serverClock';

const MINUTES = 60_000;

/** A stub API whose clock is `skewMs` away from the device's: every answer carries its Date. */
function stubServer(skewMs: number, contentType = 'application/json') {
  return async () => {
    const body =
      contentType === 'application/json' ? JSON.stringify({ data: [], nextCursor: null }) : '<html>login</html>';
    return new Response(body, {
      status: 200,
      headers: { 'Content-Type': contentType, Date: new Date(Date.now() + skewMs).toUTCString() },
    });
  };
}

async function occurredAtAfterPull(skewMs: number, contentType?: string) {
  const databaseName = `clock-${randomUUID()}`;
  const platform = testPlatform({ network: testNetwork({ fetch: stubServer(skewMs, contentType) }) });
  const kiosk = openKiosk({
    platform,
    databaseName,
    serverUrl: 'http://stub.invalid',
    token: 't',
    siteId: 1,
    mode: 'visitor',
    correctClock: true,
  });
  kiosk.start();
  await kiosk.engine.syncNow();
  await kiosk.engine.stop();
  const checkedIn = await kiosk.checkIn({ person: { firstName: 'Tim', lastName: 'Keeper' } });
  if (!checkedIn.ok) throw new Error(checkedIn.message);
  const [action] = await kiosk.db.outbox.toArray();
  await kiosk.close();
  return { databaseName, skewSeen: Date.parse(action?.occurredAt ?? '') - Date.now() };
}

describe('the time actions are stamped with', () => {
  it("a device clock 10 minutes fast takes the server's, and keeps the correction for the next start, offline", async () => {
    const { databaseName, skewSeen } = await occurredAtAfterPull(-10 * MINUTES);
    expect(Math.abs(skewSeen + 10 * MINUTES)).toBeLessThan(2_500);
    // A new start with no network: the correction was kept in the database.
    const offline = openKiosk({
      platform: testPlatform({ network: testNetwork({ online: false }) }),
      databaseName,
      serverUrl: 'http://stub.invalid',
      token: 't',
      siteId: 1,
      mode: 'visitor',
      correctClock: true,
    });
    const again = await offline.checkIn({ person: { firstName: 'Tam', lastName: 'Keeper' } });
    if (!again.ok) throw new Error(again.message);
    const stamped = (await offline.db.outbox.toArray()).map((action) => Date.parse(action.occurredAt) - Date.now());
    expect(Math.abs((stamped[1] ?? 0) + 10 * MINUTES)).toBeLessThan(2_500);
    await offline.close();
  });

  it("a device clock days behind takes the server's (else every action would be refused as older than 7 days)", async () => {
    const { skewSeen } = await occurredAtAfterPull(9 * 24 * 60 * MINUTES);
    expect(Math.abs(skewSeen - 9 * 24 * 60 * MINUTES)).toBeLessThan(2_500);
  });

  it("a clock less than a minute off is left alone, and a captive portal's clock is never taken", async () => {
    // Under 5 s: a 20 s correction taken would show, and a loaded machine's time between stamp and reading does not.
    expect(Math.abs((await occurredAtAfterPull(20_000)).skewSeen)).toBeLessThan(5_000);
    expect(Math.abs((await occurredAtAfterPull(-30 * MINUTES, 'text/html')).skewSeen)).toBeLessThan(5_000);
  });
});

const HOURS = 60 * MINUTES;

/** A device whose wall clock a test sets (as a person or NTP does) and whose monotonic clock only time moves. */
function fakeDevice(startMs: number) {
  let wall = startMs;
  let elapsed = 0;
  return {
    clock: { now: () => wall, elapsed: () => elapsed },
    /** Time passes (awake): both clocks move. */
    pass: (ms: number) => ((wall += ms), (elapsed += ms)),
    /** The wall clock is set (or the device slept: the monotonic clock stands still in suspend). */
    set: (ms: number) => (wall += ms),
    get wall() {
      return wall;
    },
  };
}

async function openClock(name: string, device: ReturnType<typeof fakeDevice>) {
  const db = new KioskDatabase(name);
  const clock = serverClock(db, device.clock, { enabled: true });
  await clock.ready;
  return { db, clock };
}

/**
 * The fire-and-forget write of the correction has landed: waited for, not slept on (a loaded machine may
 * take longer than any fixed pause to write it).
 */
const kept = (db: KioskDatabase, correctionMs: number) =>
  expect.poll(async () => (await db.meta.get('serverClockOffsetMs'))?.value).toBe(correctionMs);

describe('a device clock set while the kiosk is offline', () => {
  const T0 = Date.parse('2026-11-21T09:00:00.000Z');

  it('set back (it was fast): the correction grows by as much, so stamps stay right, also after a restart', async () => {
    const name = `clock-${randomUUID()}`;
    const device = fakeDevice(T0 + 3 * HOURS);
    const { db, clock } = await openClock(name, device);
    clock.observe(T0);
    expect(Math.abs(clock.stamp().at - T0)).toBeLessThan(1_000);
    // Offline: ten minutes later NTP comes back and sets the device clock right.
    device.pass(10 * MINUTES);
    device.set(-3 * HOURS);
    const stamp = clock.stamp();
    expect(stamp.deviceAt).toBe(device.wall);
    expect(Math.abs(stamp.at - (T0 + 10 * MINUTES))).toBeLessThan(1_000);
    expect(Math.abs(clock.correctionMs())).toBeLessThan(1_000);
    await kept(db, clock.correctionMs());
    db.close();
    // Restarted offline: the shifted correction was kept.
    const again = await openClock(name, device);
    expect(Math.abs(again.clock.now() - (T0 + 10 * MINUTES))).toBeLessThan(1_000);
    again.db.close();
  });

  it('set back by less than a minute while no correction was in use: still none (the clock is right now)', async () => {
    const device = fakeDevice(T0 + 50_000);
    const { db, clock } = await openClock(`clock-${randomUUID()}`, device);
    clock.observe(T0);
    expect(clock.correctionMs()).toBe(0);
    device.pass(MINUTES);
    device.set(-50_000);
    expect(clock.correctionMs()).toBe(0);
    expect(clock.stamp().at).toBe(device.wall);
    db.close();
  });

  it('moved ahead of the monotonic clock (set forward, or the device slept): no answer of the server, no change', async () => {
    const device = fakeDevice(T0 - 3 * HOURS);
    const { db, clock } = await openClock(`clock-${randomUUID()}`, device);
    clock.observe(T0);
    const correction = clock.correctionMs();
    expect(Math.abs(correction - 3 * HOURS)).toBeLessThan(1_000);
    // A tablet that slept an hour: the wall clock moved, the monotonic clock (CLOCK_MONOTONIC) did not.
    device.set(1 * HOURS);
    expect(clock.correctionMs()).toBe(correction);
    expect(clock.stamp().at).toBe(device.wall + correction);
    // And a wall clock a second behind the monotonic one is jitter, not someone setting it.
    device.set(-1_000);
    expect(clock.correctionMs()).toBe(correction);
    db.close();
  });
});

describe('an action refused for a time in the future (422 OCCURRED_AT_OUT_OF_RANGE)', () => {
  const Resource = z.object({ checkinId: z.number() });
  const refusal: HttpOutcome<{ checkinId: number }> = {
    kind: 'refused',
    status: 422,
    problem: {
      type: 'urn:problem:occurred-at-out-of-range',
      title: 'occurredAt out of range',
      status: 422,
      code: 'OCCURRED_AT_OUT_OF_RANGE',
      detail: 'The time the event occurred is more than 5 minutes in the future.',
      instance: '/v1/sites/1/checkins/people',
      requestId: 'r',
    },
    retryAfterMs: undefined,
  };
  const serverNowMs = Date.parse('2026-11-21T12:00:00.000Z');
  // Stamped 3 hours ahead: a correction learnt while the device was 3 hours behind, and its clock set right since.
  const check = (overrides: Partial<StampCheck> = {}): StampCheck => ({
    occurredAt: new Date(serverNowMs - 20 * MINUTES + 3 * HOURS).toISOString(),
    deviceAt: serverNowMs - 20 * MINUTES,
    serverNowMs,
    correctionMs: 0,
    mayRestamp: true,
    ...overrides,
  });

  it("is sent again at the device's own time plus the correction the answer brought", () => {
    expect(decide(refusal, Resource, check())).toMatchObject({
      type: 'restamp',
      occurredAt: '2026-11-21T11:40:00.000Z',
    });
    // The device clock set forward 2 hours (wrongly) while offline: the answer's correction puts it right.
    const ahead = check({
      occurredAt: new Date(serverNowMs - 20 * MINUTES + 2 * HOURS).toISOString(),
      deviceAt: serverNowMs - 20 * MINUTES + 2 * HOURS,
      correctionMs: -2 * HOURS,
    });
    expect(decide(refusal, Resource, ahead)).toMatchObject({ type: 'restamp', occurredAt: '2026-11-21T11:40:00.000Z' });
  });

  it('waits for a person, in plain words, when the real time cannot be worked out', () => {
    const cases = [
      check({ deviceAt: undefined }),
      check({ deviceAt: serverNowMs + HOURS }),
      check({ mayRestamp: false }),
    ];
    for (const stamp of cases) {
      const decision = decide(refusal, Resource, stamp);
      expect(decision).toMatchObject({ type: 'attention', error: { status: 422, code: 'OCCURRED_AT_IN_FUTURE' } });
      expect(decision.type === 'attention' ? decision.error.message : '').toMatch(
        /^It was recorded about 3 hours ahead of the server's clock/,
      );
    }
  });

  it('a time more than 7 days old is not restamped: it may really be that old', () => {
    const old = check({
      occurredAt: new Date(serverNowMs - 8 * 24 * HOURS).toISOString(),
      deviceAt: serverNowMs - 8 * 24 * HOURS,
      correctionMs: 8 * 24 * HOURS,
    });
    expect(decide(refusal, Resource, old)).toMatchObject({
      type: 'attention',
      error: { code: 'OCCURRED_AT_OUT_OF_RANGE' },
    });
  });
});

describe('the sync loop', () => {
  it('never loses a request that comes as a pass ends: a pass always starts after the last request', async () => {
    for (let depth = 0; depth < 30; depth += 1) {
      let step = 0;
      let passStarted = 0;
      const loop = guardedLoop({
        locks: createMemoryLock(),
        lockName: `loop-${depth}`,
        pass: async () => void (passStarted = ++step),
        onError: () => undefined,
      });
      loop.request();
      for (let tick = 0; tick < depth; tick += 1) await Promise.resolve();
      const requested = ++step;
      loop.request();
      await loop.idle();
      expect(passStarted, `second request ${depth} microtasks later`).toBeGreaterThan(requested);
    }
  });
});
