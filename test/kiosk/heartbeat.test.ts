// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { version } from '../../package.json';
import { openKiosk } from '../../kiosk/src/kiosk';
import { testNetwork, testPlatform } from '../../kiosk/src/platform/testPlatform';
import { type HeartbeatAnswer, HEARTBEAT_INTERVAL_MS, scheduleHeartbeat } from '../../kiosk/src/sync/heartbeat';

/** A clock whose timers run only when the test says so. */
function manualClock() {
  const timers: Array<{ ms: number; run: () => void; cancelled: boolean }> = [];
  return {
    timers,
    setTimer(ms: number, run: () => void) {
      const timer = { ms, run, cancelled: false };
      timers.push(timer);
      return () => (timer.cancelled = true);
    },
    /** Runs the latest timer that is still armed; false when there is none. */
    fire(): boolean {
      const timer = timers.at(-1);
      if (!timer || timer.cancelled) return false;
      timer.cancelled = true;
      timer.run();
      return true;
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('heartbeat scheduling', () => {
  it('beats at start and then every minute while there is a link; without one it waits for the next minute', async () => {
    const clock = manualClock();
    let link = true;
    let beats = 0;
    const beat = async (): Promise<HeartbeatAnswer> => ((beats += 1), 'sent');
    const heartbeat = scheduleHeartbeat({ clock, beat, hasLink: () => link, isRevoked: () => false });
    await settle();
    expect(beats).toBe(1);
    expect(clock.timers.map((timer) => timer.ms)).toEqual([HEARTBEAT_INTERVAL_MS]);
    link = false;
    expect(clock.fire()).toBe(true);
    await settle();
    expect(beats).toBe(1);
    link = true;
    expect(clock.fire()).toBe(true);
    await settle();
    expect(beats).toBe(2);
    heartbeat.stop();
    expect(clock.fire()).toBe(false);
  });

  it('keeps beating after a failure, stops for the session on a 404, and stops once revoked', async () => {
    const answers: HeartbeatAnswer[] = ['failed', 'notAKiosk'];
    const clock = manualClock();
    let beats = 0;
    scheduleHeartbeat({
      clock,
      beat: async () => ((beats += 1), answers.shift() ?? 'sent'),
      hasLink: () => true,
      isRevoked: () => false,
    });
    await settle();
    expect(clock.fire()).toBe(true);
    await settle();
    expect(beats).toBe(2);
    expect(clock.fire()).toBe(false); // no timer after the 404

    const revokedClock = manualClock();
    let revoked = false;
    let revokedBeats = 0;
    scheduleHeartbeat({
      clock: revokedClock,
      beat: async () => ((revokedBeats += 1), 'sent'),
      hasLink: () => true,
      isRevoked: () => revoked,
    });
    await settle();
    revoked = true;
    expect(revokedClock.fire()).toBe(true);
    await settle();
    expect(revokedBeats).toBe(1);
    expect(revokedClock.fire()).toBe(false);
  });
});

describe('the kiosk heartbeat', () => {
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  const problem = (status: number, code: string) =>
    new Response(
      JSON.stringify({ type: 'urn:x', title: code, status, detail: code, code, instance: '/', requestId: 'r' }),
      {
        status,
        headers: { 'Content-Type': 'application/problem+json' },
      },
    );

  it('reports the pending and needs-attention counts and the app version; a 404 stops it silently', async () => {
    const beats: unknown[] = [];
    let answer = 204;
    const fetch = async (url: string, init: RequestInit): Promise<Response> => {
      if (url.endsWith('/v1/kiosk/heartbeat')) {
        beats.push({
          auth: new Headers(init.headers).get('Authorization'),
          body: JSON.parse(typeof init.body === 'string' ? init.body : ''),
        });
        return answer === 204 ? new Response(null, { status: 204 }) : problem(answer, 'NOT_FOUND');
      }
      // Everything else is away: the check-in stays pending.
      if (init.method === 'GET') return json(200, { data: [], nextCursor: null });
      return problem(503, 'UNAVAILABLE');
    };
    const errors: unknown[] = [];
    const kiosk = openKiosk({
      platform: testPlatform({ network: testNetwork({ fetch }) }),
      databaseName: `heartbeat-${randomUUID()}`,
      databaseOptions: { indexedDB, IDBKeyRange },
      serverUrl: 'http://stub.invalid',
      token: 'ck_kiosk',
      siteId: 1,
      mode: 'visitor',
      heartbeat: { intervalMs: 50 },
      sync: { onError: (error) => errors.push(error) },
    });
    await kiosk.checkIn({ person: { firstName: 'Pat', lastName: 'Pending' } });
    kiosk.start();
    await expect.poll(() => beats.length).toBeGreaterThanOrEqual(2);
    expect(beats[0]).toEqual({ auth: 'Bearer ck_kiosk', body: { pending: 1, attention: 0, appVersion: version } });

    answer = 404;
    const before = beats.length;
    // The next beat is refused (404): it is the last one, and nothing is reported as an error.
    await expect.poll(() => beats.length).toBe(before + 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(beats.length).toBe(before + 1);
    expect(errors).toEqual([]);
    await kiosk.close();
  });

  it('is off unless asked for (the app asks), so stub servers that count requests see none', async () => {
    const urls: string[] = [];
    const fetch = async (url: string): Promise<Response> => (urls.push(url), json(200, { data: [], nextCursor: null }));
    const kiosk = openKiosk({
      platform: testPlatform({ network: testNetwork({ fetch }) }),
      databaseName: `heartbeat-${randomUUID()}`,
      databaseOptions: { indexedDB, IDBKeyRange },
      serverUrl: 'http://stub.invalid',
      token: 'ck_kiosk',
      siteId: 1,
      mode: 'visitor',
    });
    kiosk.start();
    await kiosk.engine.syncNow();
    expect(urls.some((url) => url.includes('/heartbeat'))).toBe(false);
    await kiosk.close();
  });
});
