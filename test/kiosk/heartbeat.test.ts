// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { version } from '../../package.json';
import { openKiosk } from '../../kiosk/src/kiosk';
import type { FetchLike } from '../../kiosk/src/platform/platform';
import { testNetwork, testPlatform } from '../../kiosk/src/platform/testPlatform';
import {
  type HeartbeatAnswer,
  type HeartbeatReport,
  HEARTBEAT_INTERVAL_MS,
  scheduleHeartbeat,
} from '../../kiosk/src/sync/heartbeat';

/** A clock whose timers run only when the test says so; its monotonic reading moves only when told. */
function manualClock() {
  const timers: Array<{ ms: number; run: () => void; cancelled: boolean }> = [];
  let elapsed = 0;
  return {
    timers,
    elapsed: () => elapsed,
    setTimer(ms: number, run: () => void) {
      const timer = { ms, run, cancelled: false };
      timers.push(timer);
      return () => (timer.cancelled = true);
    },
    /** Runs the latest timer that is still armed, after its time has passed; false when there is none. */
    fire(): boolean {
      const timer = timers.at(-1);
      if (!timer || timer.cancelled) return false;
      timer.cancelled = true;
      elapsed += timer.ms;
      timer.run();
      return true;
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const REPORT: HeartbeatReport = { pending: 0, attention: 0, appVersion: '1.0.0' };

/** A heartbeat whose sends are counted, reporting what `report.now` says. */
function countingHeartbeat(options: { link?: () => boolean; streamOpen?: () => boolean; answers?: HeartbeatAnswer[] }) {
  const clock = manualClock();
  const sent: HeartbeatReport[] = [];
  const report = { now: REPORT };
  const heartbeat = scheduleHeartbeat({
    clock,
    report: async () => report.now,
    send: async (body) => (sent.push(body), options.answers?.shift() ?? 'sent'),
    hasLink: options.link ?? (() => true),
    isRevoked: () => false,
    streamOpen: options.streamOpen,
  });
  return { clock, sent, report, heartbeat };
}

/** One more minute passes (the next look at what to report). */
async function nextMinute(clock: ReturnType<typeof manualClock>) {
  expect(clock.fire()).toBe(true);
  await settle();
}

describe('heartbeat scheduling', () => {
  it('without an event stream: beats at start and then every minute while there is a link; without one it waits', async () => {
    let link = true;
    const { clock, sent, heartbeat } = countingHeartbeat({ link: () => link });
    await settle();
    expect(sent).toHaveLength(1);
    expect(clock.timers.map((timer) => timer.ms)).toEqual([HEARTBEAT_INTERVAL_MS]);
    link = false;
    await nextMinute(clock);
    expect(sent).toHaveLength(1);
    link = true;
    await nextMinute(clock);
    await nextMinute(clock);
    expect(sent).toHaveLength(3);
    heartbeat.stop();
    expect(clock.fire()).toBe(false);
  });

  it('with the event stream open: only when what it reports changed, or 15 minutes after the last; every minute again once the stream is down', async () => {
    let open = false;
    const { clock, sent, report } = countingHeartbeat({ streamOpen: () => open });
    await settle();
    expect(sent).toEqual([REPORT]);
    open = true;
    for (let minute = 1; minute < 15; minute += 1) await nextMinute(clock);
    expect(sent).toHaveLength(1);
    // An action waits to be synced: the console hears of it within the minute.
    report.now = { ...REPORT, pending: 1 };
    await nextMinute(clock);
    expect(sent.at(-1)).toEqual({ ...REPORT, pending: 1 });
    // And of a new app version, and of an action that needs attention.
    report.now = { pending: 0, attention: 1, appVersion: '1.0.1' };
    await nextMinute(clock);
    expect(sent).toHaveLength(3);
    for (let minute = 1; minute < 15; minute += 1) await nextMinute(clock);
    expect(sent).toHaveLength(3);
    // Nothing changed for 15 minutes: one heartbeat refreshes the report.
    await nextMinute(clock);
    expect(sent).toHaveLength(4);
    // The stream is down: the server no longer sees the kiosk by it, so the heartbeat goes every minute.
    open = false;
    await nextMinute(clock);
    await nextMinute(clock);
    expect(sent).toHaveLength(6);
  });

  it('with the stream open, a heartbeat that failed goes again at the next minute', async () => {
    const { clock, sent, report } = countingHeartbeat({ streamOpen: () => true, answers: ['sent', 'failed'] });
    await settle();
    report.now = { ...REPORT, pending: 2 };
    await nextMinute(clock);
    expect(sent).toHaveLength(2);
    await nextMinute(clock);
    expect(sent).toHaveLength(3);
    await nextMinute(clock);
    expect(sent).toHaveLength(3);
  });

  it('keeps beating after a failure, stops for the session on a 404, and stops once revoked', async () => {
    const failing = countingHeartbeat({ answers: ['failed', 'notAKiosk'] });
    await settle();
    await nextMinute(failing.clock);
    expect(failing.sent).toHaveLength(2);
    expect(failing.clock.fire()).toBe(false); // no timer after the 404

    const revokedClock = manualClock();
    let revoked = false;
    let revokedBeats = 0;
    scheduleHeartbeat({
      clock: revokedClock,
      report: async () => REPORT,
      send: async () => ((revokedBeats += 1), 'sent'),
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
  /** A visitor kiosk of site 1 on a fresh in-memory database, its server the stub `fetch` answers for. */
  const stubKiosk = (fetch: FetchLike, options: Partial<Parameters<typeof openKiosk>[0]> = {}) =>
    openKiosk({
      platform: testPlatform({ network: testNetwork({ fetch }) }),
      databaseName: `heartbeat-${randomUUID()}`,
      databaseOptions: { indexedDB, IDBKeyRange },
      serverUrl: 'http://stub.invalid',
      token: 'ck_kiosk',
      siteId: 1,
      mode: 'visitor',
      ...options,
    });

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
    const kiosk = stubKiosk(fetch, {
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

  it('with its event stream open it beats only when what it reports changes; with the stream down, at every interval', async () => {
    const beats: Array<{ pending: number }> = [];
    const encoder = new TextEncoder();
    let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
    let streams = 0;
    const fetch = async (url: string, init: RequestInit): Promise<Response> => {
      if (url.endsWith('/v1/kiosk/heartbeat')) {
        beats.push(JSON.parse(typeof init.body === 'string' ? init.body : '') as { pending: number });
        return new Response(null, { status: 204 });
      }
      if (url.endsWith('/v1/events')) {
        streams += 1;
        // The first connection stays open; any later one is refused (the stream is down from then on).
        if (streams > 1) return problem(503, 'UNAVAILABLE');
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            stream = controller;
            controller.enqueue(encoder.encode('retry: 60000\n\nid: 1-1\nevent: reset\ndata: {"reason":"start"}\n\n'));
          },
        });
        return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
      }
      if (init.method === 'GET') return json(200, { data: [], nextCursor: null });
      return problem(503, 'UNAVAILABLE');
    };
    const kiosk = stubKiosk(fetch, { events: true, heartbeat: { intervalMs: 40 } });
    kiosk.start();
    await expect.poll(() => streams).toBe(1);
    await expect.poll(() => beats.length).toBeGreaterThanOrEqual(1);
    // The stream is open and nothing changes: a second of looks (about 25), no heartbeat.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const quiet = beats.length;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(beats.length).toBe(quiet);

    // A check-in the server cannot take waits on the kiosk: the next look reports it, once.
    expect((await kiosk.checkIn({ person: { firstName: 'Pat', lastName: 'Pending' } })).ok).toBe(true);
    await expect.poll(() => beats.at(-1)?.pending).toBe(1);
    const reported = beats.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(beats.length).toBe(reported);

    // The stream ends and cannot be made again: the heartbeat goes at every look.
    stream?.close();
    await expect.poll(() => beats.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(reported + 3);
    await kiosk.close();
  });

  it('is off unless asked for (the app asks), so stub servers that count requests see none', async () => {
    const urls: string[] = [];
    const fetch = async (url: string): Promise<Response> => (urls.push(url), json(200, { data: [], nextCursor: null }));
    const kiosk = stubKiosk(fetch);
    kiosk.start();
    await kiosk.engine.syncNow();
    expect(urls.some((url) => url.includes('/heartbeat'))).toBe(false);
    await kiosk.close();
  });
});
