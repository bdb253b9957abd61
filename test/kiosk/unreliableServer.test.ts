// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openKiosk } from '../../kiosk/src/kiosk';
import { testNetwork, testPlatform } from '../../kiosk/src/platform/testPlatform';
import { fullJitterBackoff } from '../../kiosk/src/sync/backoff';
import { NOT_THE_SERVER } from '../../shared/src/client/http';
import { defaultCheckinConfig } from '../../shared/src/schemas/sites';
import { stubPersonCheckin } from './stubAnswers';

// A stub server in place of the real one: these are the ways a real network and server misbehave.
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const checkin = (firstName = 'Stub') => stubPersonCheckin(firstName, 'Person');

function stubKiosk(
  fetch: (url: string, init: RequestInit) => Promise<Response>,
  options: Partial<Parameters<typeof openKiosk>[0]> = {},
) {
  const platform = testPlatform({ network: testNetwork({ fetch }) });
  const kiosk = openKiosk({
    platform,
    databaseName: `unreliable-${randomUUID()}`,
    serverUrl: 'http://stub.invalid',
    token: 't',
    siteId: 1,
    mode: 'visitor',
    ...options,
  });
  return { kiosk, platform };
}

describe('a kiosk on an unreliable network or server', () => {
  it('with nothing queued, a failed pull does not leave it Offline for good: the next pull finds the server back', async () => {
    let down = true;
    let gets = 0;
    const { kiosk } = stubKiosk(
      async (url, init) => {
        if ((init.method ?? 'GET') === 'GET') gets += 1;
        if (down) throw new TypeError('fetch failed: the server is restarting');
        // The visitor kiosk's people come by the change feed; anything else read is an empty-enough list.
        if (url.includes('/people/changes'))
          return json(200, { data: [checkin('Other')], nextCursor: 'c', hasMore: false });
        return json(200, { data: [checkin('Other')], nextCursor: null });
      },
      { sync: { pullIntervalMs: 30, retryPolicy: fullJitterBackoff({ baseMs: 2, capMs: 25 }) } },
    );
    let online: boolean | undefined;
    kiosk.status.subscribe((status) => (online = status.online));
    kiosk.start();
    await kiosk.engine.idle();
    down = false;
    const before = gets;
    for (let waited = 0; waited < 3_000 && !(online && (await kiosk.db.people.count()) === 1); waited += 20)
      await sleep(20);
    expect(gets).toBeGreaterThan(before);
    expect(online).toBe(true);
    expect(await kiosk.db.people.count()).toBe(1);
    await kiosk.close();
  });

  it('a device clock set back after an outage does not pause the queue for as long as the clock moved', async () => {
    let down = true;
    let posts = 0;
    const { kiosk, platform } = stubKiosk(
      async (_url, init) => {
        if (down) throw new TypeError('fetch failed');
        if ((init.method ?? 'GET') !== 'GET') {
          posts += 1;
          return json(201, checkin());
        }
        return json(200, { data: [], nextCursor: null });
      },
      { sync: { pullIntervalMs: 60_000, concurrency: 1, retryPolicy: fullJitterBackoff({ baseMs: 50, capMs: 200 }) } },
    );
    for (const name of ['A', 'B', 'C']) await kiosk.checkIn({ person: { firstName: name, lastName: 'X' } });
    kiosk.start();
    await kiosk.engine.idle(); // three unanswered attempts in a row: the whole queue pauses (at most the cap)
    platform.clock.shift(-3_600_000); // NTP pulls a fast clock back by an hour
    down = false;
    for (let waited = 0; waited < 3_000 && (await kiosk.db.outbox.count()) > 0; waited += 20) {
      kiosk.engine.kick();
      await sleep(20);
    }
    expect(posts).toBe(3);
    expect(await kiosk.db.outbox.count()).toBe(0);
    await kiosk.close();
  });

  // Pages that did not come from the API: the action stays queued with its key (not Needs attention), and goes once the API answers.
  it.each([
    ["a captive portal's page (a 200 that is not the API's JSON)", 200, '<html>Please log in to Lobby-WiFi</html>'],
    ["a proxy's 4xx page (not the API's problem+json)", 407, '<html>407 Proxy Authentication Required</html>'],
  ])('%s is no answer: the action stays queued with its key', async (_what, status, page) => {
    let intercepted = true;
    const keys: Array<string | null> = [];
    const { kiosk } = stubKiosk(
      async (_url, init) => {
        if (intercepted) return new Response(page, { status, headers: { 'Content-Type': 'text/html' } });
        if ((init.method ?? 'GET') === 'GET') return json(200, { data: [], nextCursor: null });
        keys.push(new Headers(init.headers).get('Idempotency-Key'));
        return json(201, checkin('Cap'));
      },
      { sync: { pullIntervalMs: 60_000, retryPolicy: fullJitterBackoff({ baseMs: 2, capMs: 25 }) } },
    );
    await kiosk.checkIn({ person: { firstName: 'Cap', lastName: 'Tive' } });
    kiosk.start();
    await kiosk.engine.idle();
    const [action] = await kiosk.db.outbox.toArray();
    expect(action).toMatchObject({ state: 'QUEUED', lastError: { code: 'NETWORK', message: NOT_THE_SERVER } });
    intercepted = false;
    for (let waited = 0; waited < 3_000 && (await kiosk.db.outbox.count()) > 0; waited += 20) {
      kiosk.engine.kick();
      await sleep(20);
    }
    expect(keys).toEqual([action?.key]);
    await kiosk.close();
  });

  it('an action the device cannot save is refused in words (nothing recorded), not left hanging: the screen can go on', async () => {
    const { kiosk } = stubKiosk(async () => json(200, { data: [], nextCursor: null }));
    kiosk.db.close();
    const outcome = await kiosk.checkIn({ person: { firstName: 'Full', lastName: 'Disk' } });
    expect(outcome).toMatchObject({
      ok: false,
      code: 'NOT_SAVED',
      message: 'This device could not save it; nothing was recorded. Please try again.',
    });
    expect(await kiosk.vehicleEntry('NO-SAVE 1')).toMatchObject({ ok: false, code: 'NOT_SAVED' });
    await kiosk.close();
  });

  it('the check-in form does not wait for a server that does not answer: a stale cached form shows within the revalidation wait', async () => {
    let asked = 0;
    const { kiosk } = stubKiosk(
      (_url, init) => {
        asked += 1;
        return new Promise<Response>((_, reject) =>
          init.signal?.addEventListener('abort', () => reject(new Error('timed out'))),
        );
      },
      { requestTimeoutMs: 5_000 },
    );
    const config = { siteId: 1, requiresApproval: false, fields: defaultCheckinConfig.fields };
    await kiosk.db.siteConfigs.put({ siteId: 1, etag: null, fetchedAt: Date.now() - 10 * 60_000, config });
    const started = Date.now();
    expect(await kiosk.siteConfig()).toEqual({ config, fresh: false });
    // The revalidation wait (1 s), not the request's timeout (5 s); the margins between are a loaded machine's.
    const first = Date.now() - started;
    expect(first).toBeGreaterThanOrEqual(900);
    expect(first).toBeLessThan(4_000);
    // The revalidation is still under way: the next visitor does not wait for it again (that would be 1 s more),
    // nor start another.
    const again = Date.now();
    expect(await kiosk.siteConfig()).toEqual({ config, fresh: false });
    expect(Date.now() - again).toBeLessThan(800);
    expect(asked).toBe(1);
    kiosk.db.close();
  });
});
