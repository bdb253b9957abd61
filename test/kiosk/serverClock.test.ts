// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openKiosk } from '../../kiosk/src/kiosk';
import { createMemoryLock } from '../../kiosk/src/platform/memoryLock';
import { testNetwork, testPlatform } from '../../kiosk/src/platform/testPlatform';
import { guardedLoop } from '../../kiosk/src/sync/guardedLoop';

const MINUTES = 60_000;

/** A stub API whose clock is `skewMs` away from the device's: every answer carries its Date. */
function stubServer(skewMs: number, contentType = 'application/json') {
  return async () => {
    const body = contentType === 'application/json' ? JSON.stringify({ data: [], nextCursor: null }) : '<html>login</html>';
    return new Response(body, { status: 200, headers: { 'Content-Type': contentType, Date: new Date(Date.now() + skewMs).toUTCString() } });
  };
}

async function occurredAtAfterPull(skewMs: number, contentType?: string) {
  const databaseName = `clock-${randomUUID()}`;
  const platform = testPlatform({ network: testNetwork({ fetch: stubServer(skewMs, contentType) }) });
  const kiosk = openKiosk({ platform, databaseName, serverUrl: 'http://stub.invalid', token: 't', siteId: 1, mode: 'visitor', correctClock: true });
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
  it('a device clock 10 minutes fast takes the server\'s, and keeps the correction for the next start, offline', async () => {
    const { databaseName, skewSeen } = await occurredAtAfterPull(-10 * MINUTES);
    expect(Math.abs(skewSeen + 10 * MINUTES)).toBeLessThan(2_500);
    // A new start with no network: the correction was kept in the database.
    const offline = openKiosk({
      platform: testPlatform({ network: testNetwork({ online: false }) }), databaseName, serverUrl: 'http://stub.invalid', token: 't',
      siteId: 1, mode: 'visitor', correctClock: true,
    });
    const again = await offline.checkIn({ person: { firstName: 'Tam', lastName: 'Keeper' } });
    if (!again.ok) throw new Error(again.message);
    const stamped = (await offline.db.outbox.toArray()).map((action) => Date.parse(action.occurredAt) - Date.now());
    expect(Math.abs((stamped[1] ?? 0) + 10 * MINUTES)).toBeLessThan(2_500);
    await offline.close();
  });

  it('a device clock days behind takes the server\'s (else every action would be refused as older than 7 days)', async () => {
    const { skewSeen } = await occurredAtAfterPull(9 * 24 * 60 * MINUTES);
    expect(Math.abs(skewSeen - 9 * 24 * 60 * MINUTES)).toBeLessThan(2_500);
  });

  it('a clock less than a minute off is left alone, and a captive portal\'s clock is never taken', async () => {
    expect(Math.abs((await occurredAtAfterPull(20_000)).skewSeen)).toBeLessThan(1_000);
    expect(Math.abs((await occurredAtAfterPull(-30 * MINUTES, 'text/html')).skewSeen)).toBeLessThan(1_000);
  });
});

describe('the sync loop', () => {
  it('never loses a request that comes as a pass ends: a pass always starts after the last request', async () => {
    for (let depth = 0; depth < 30; depth += 1) {
      let step = 0;
      let passStarted = 0;
      const loop = guardedLoop({
        locks: createMemoryLock(), lockName: `loop-${depth}`, pass: async () => void (passStarted = ++step), onError: () => undefined,
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
