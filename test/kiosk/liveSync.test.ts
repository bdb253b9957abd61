// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { badgeQrText } from '../../shared/src/domain/badge';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { FetchLike } from '../../shared/src/client/http';
import type { Kiosk } from '../../kiosk/src/kiosk';
import { pullPeopleFeed } from '../../kiosk/src/sync/peopleFeedPull';
import {
  type KioskSite,
  buildKioskSite,
  drain,
  kioskServerForFile,
  openTestKiosk,
  serverPeople,
  until,
} from './harness';

const harness = kioskServerForFile();

async function integratorCheckIn(site: KioskSite, firstName: string): Promise<PersonCheckin> {
  const response = await site.api.post<PersonCheckin>(`/v1/sites/${site.siteId}/checkins/people`, {
    person: { firstName, lastName: 'Elsewhere' },
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const checkOutElsewhere = async (site: KioskSite, checkin: PersonCheckin) =>
  expect(
    (await site.api.post(`/v1/sites/${site.siteId}/checkins/people/${checkin.checkinId}/checkout`, {})).status,
  ).toBe(200);

const namesOf = async (kiosk: Kiosk) => (await kiosk.findPeople('')).map((visit) => visit.person.firstName).sort();

/** Counts the kiosk's requests by path (without the query), under its test network. */
function countingFetch() {
  const counts = new Map<string, number>();
  const fetch: FetchLike = (url, init) => {
    const path = new URL(url).pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    return globalThis.fetch(url, init);
  };
  return { fetch, count: (path: string) => counts.get(path) ?? 0 };
}

/**
 * A link whose event stream can be cut: the open stream is aborted, and a new one waits (as a connection to an
 * unreachable host does) until the link is back. Every other request goes through.
 */
function cuttableStream() {
  const open = new Set<AbortController>();
  let restored: (() => void) | undefined;
  let cut: Promise<void> | undefined;
  const fetch: FetchLike = async (url, init) => {
    if (!url.endsWith('/v1/events')) return globalThis.fetch(url, init);
    if (cut) await cut;
    const abort = new AbortController();
    init.signal?.addEventListener('abort', () => abort.abort());
    open.add(abort);
    return globalThis.fetch(url, { ...init, signal: abort.signal });
  };
  return {
    fetch,
    cut() {
      cut = new Promise((resolve) => (restored = resolve));
      for (const abort of open) abort.abort();
      open.clear();
    },
    restore() {
      cut = undefined;
      restored?.();
    },
  };
}

describe('the visitor kiosk keeps its people by the change feed', () => {
  it('pulls only what changed: an unchanged site costs one request; a visit that left goes; badge codes come', async () => {
    const site = await buildKioskSite(harness.server);
    const counting = countingFetch();
    const { kiosk, network, platform } = openTestKiosk(harness.server, site, { fetch: counting.fetch });
    // Pulls driven by the test (the engine not started yet): each is counted exactly.
    const pull = async () =>
      expect(
        await pullPeopleFeed(
          { db: kiosk.db, api: kiosk.api, now: () => platform.clock.now(), onReachability: () => {} },
          site.siteId,
        ),
      ).toBe('pulled');
    const feed = `/v1/sites/${site.siteId}/checkins/people/changes`;
    const ada = await integratorCheckIn(site, 'Ada');
    await pull();
    expect(await namesOf(kiosk)).toEqual(['Ada']);
    // The first reading, then the changes since it: two requests.
    expect(counting.count(feed)).toBe(2);
    expect(counting.count(`/v1/sites/${site.siteId}/kiosk/people`)).toBe(0);

    await pull();
    expect(counting.count(feed)).toBe(3);

    const bob = await integratorCheckIn(site, 'Bob');
    await checkOutElsewhere(site, ada);
    await pull();
    expect(counting.count(feed)).toBe(4);
    expect(await namesOf(kiosk)).toEqual(['Bob']);
    expect(await kiosk.db.people.where('serverId').equals(ada.checkinId).count()).toBe(0);

    // Bob's badge checks him out offline, from the copy the feed brought.
    kiosk.engine.start();
    await kiosk.engine.idle();
    network.setOnline(false);
    const scanned = await kiosk.checkOutByBadge(
      badgeQrText({ siteId: site.siteId, checkinId: bob.checkinId, code: bob.badgeCode ?? '' }),
    );
    expect(scanned.ok).toBe(true);
    network.setOnline(true);
    await drain(kiosk);
    expect((await serverPeople(site)).find((visit) => visit.checkinId === bob.checkinId)?.status).toBe('OUT');
    await kiosk.close();
  });

  it('keeps a checkout made here while the feed still says IN, and sends it once', async () => {
    const site = await buildKioskSite(harness.server);
    const { kiosk, network } = openTestKiosk(harness.server, site);
    const cy = await integratorCheckIn(site, 'Cy');
    kiosk.engine.start();
    await kiosk.engine.syncNow();
    const held = await kiosk.db.people.where('serverId').equals(cy.checkinId).first();
    if (!held) throw new Error('Cy was not pulled');
    network.setOnline(false);
    expect((await kiosk.checkOut(held.visitId)).ok).toBe(true);
    // Cy takes a break elsewhere meanwhile: the feed brings it, the queued checkout wins on this kiosk.
    expect(
      (await site.api.post(`/v1/sites/${site.siteId}/checkins/people/${cy.checkinId}/breaks/start`, {})).status,
    ).toBe(200);
    network.setOnline(true);
    await drain(kiosk);
    const server = (await serverPeople(site)).find((visit) => visit.checkinId === cy.checkinId);
    expect(server?.status).toBe('OUT');
    expect(await kiosk.db.outbox.count()).toBe(0);
    await kiosk.engine.syncNow();
    expect(await namesOf(kiosk)).toEqual([]);
    await kiosk.close();
  });
});

describe('the kiosk follows the event stream', () => {
  it('shows a change made elsewhere at once, with no timed pull in between', async () => {
    const site = await buildKioskSite(harness.server);
    // The harness's timed pull comes every minute: only the stream can bring the change within seconds.
    const { kiosk } = openTestKiosk(harness.server, site, { events: true });
    kiosk.start();
    await kiosk.engine.idle();
    await integratorCheckIn(site, 'Dee');
    await until(async () => (await namesOf(kiosk)).includes('Dee'), 10_000);
    await kiosk.close();
  });

  it('with the stream cut it still checks in and pulls; when the stream returns, what it missed comes by itself', async () => {
    const site = await buildKioskSite(harness.server);
    const link = cuttableStream();
    const { kiosk } = openTestKiosk(harness.server, site, { events: true, fetch: link.fetch });
    kiosk.start();
    await integratorCheckIn(site, 'Eve');
    await until(async () => (await namesOf(kiosk)).includes('Eve'), 10_000);

    link.cut();
    const here = await kiosk.checkIn({ person: { firstName: 'Fay', lastName: 'Here' } });
    expect(here.ok).toBe(true);
    await integratorCheckIn(site, 'Gus');
    // The timed pull (here asked for by the test) still brings the site, and the queue still goes.
    await drain(kiosk);
    expect(await namesOf(kiosk)).toEqual(['Eve', 'Fay', 'Gus']);
    expect((await serverPeople(site)).map((visit) => visit.person.firstName)).toContain('Fay');

    const hal = await integratorCheckIn(site, 'Hal');
    expect(hal.status).toBe('IN');
    link.restore();
    // Reconnected with Last-Event-ID, the stream replays Hal's check-in: a pull follows, no timer needed.
    await until(async () => (await namesOf(kiosk)).includes('Hal'), 20_000);
    await kiosk.close();
  });
});
