// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { Kiosk } from '../../kiosk/src/kiosk';
import type { SyncStatus } from '../../kiosk/src/sync/status';
import { pullPeople } from '../../kiosk/src/sync/pull';
import { ackWriter } from '../../kiosk/src/sync/ackWriter';
import { pushOutbox } from '../../kiosk/src/sync/push';
import { putCheckinConfig } from '../support/checkinConfig';
import {
  type KioskSite,
  buildKioskSite,
  kioskServerForFile,
  openTestKiosk,
  serverPeople,
  testRetryPolicy,
  until,
} from './harness';

const harness = kioskServerForFile();

const MINUTES = 60_000;

/** One push pass and one pull, driven by the test (the engine is not started). */
const push = (kiosk: Kiosk, now: () => number) => {
  const acks = ackWriter(kiosk.db, now, (error) => {
    throw error;
  });
  return pushOutbox({
    db: kiosk.db,
    api: kiosk.api,
    now,
    policy: testRetryPolicy(),
    concurrency: 2,
    isStopped: () => false,
    onReachability: () => {},
    acks,
  });
};
const pull = (kiosk: Kiosk, now: () => number) =>
  pullPeople({ db: kiosk.db, api: kiosk.api, now, onReachability: () => {} }, kiosk.siteId);

async function integratorCheckIn(site: KioskSite, firstName: string): Promise<PersonCheckin> {
  const response = await site.api.post<PersonCheckin>(`/v1/sites/${site.siteId}/checkins/people`, {
    person: { firstName, lastName: 'Elsewhere' },
  });
  expect(response.status).toBe(201);
  return response.body;
}

describe('pull: the server state of the site refreshes the local view without losing local changes', () => {
  it('adds people checked in elsewhere, drops those who left elsewhere, keeps a local checkout the server has not seen', async () => {
    const site = await buildKioskSite(harness.server);
    const { kiosk, platform } = openTestKiosk(harness.server, site);
    const now = () => platform.clock.now();
    const ada = await kiosk.checkIn({ person: { firstName: 'Ada', lastName: 'Here' } });
    const carl = await kiosk.checkIn({ person: { firstName: 'Carl', lastName: 'Here' } });
    if (!ada.ok || !carl.ok) throw new Error('check-in refused');
    await push(kiosk, now);
    const bob = await integratorCheckIn(site, 'Bob');
    const carlId = (await kiosk.db.people.get(carl.value.visitId))?.serverId;
    await site.api.patch(`/v1/sites/${site.siteId}/checkins/people/${carlId}`, {});
    expect((await kiosk.checkOut(ada.value.visitId)).ok).toBe(true);

    expect(await pull(kiosk, now)).toBe('pulled');
    const names = (await kiosk.findPeople('')).map((visit) => [visit.person.firstName, visit.status, visit.serverId]);
    // Ada is still IN on the server, but her checkout is queued here: the kiosk keeps showing her OUT (not on site).
    expect(names).toEqual([['Bob', 'IN', bob.checkinId]]);
    expect((await kiosk.db.people.get(ada.value.visitId))?.status).toBe('OUT');
    await push(kiosk, now);
    expect((await serverPeople(site)).find((checkin) => checkin.person.firstName === 'Ada')?.status).toBe('OUT');
    await kiosk.close();
  });

  it('a create whose answer was lost is not shown twice when the pull brings it first; its acknowledgement then names it', async () => {
    const site = await buildKioskSite(harness.server);
    const { kiosk, platform, network } = openTestKiosk(harness.server, site);
    const now = () => platform.clock.now();
    const dan = await kiosk.checkIn({ person: { firstName: 'Dan', lastName: 'Lost' } });
    if (!dan.ok) throw new Error(dan.message);
    network.setFaults({ failRequests: 0, dropResponses: 1 });
    await push(kiosk, now);
    expect(await kiosk.db.outbox.count()).toBe(1);
    expect(await serverPeople(site)).toHaveLength(1);

    network.setFaults({ failRequests: 0, dropResponses: 0 });
    expect(await pull(kiosk, now)).toBe('pulled');
    expect((await kiosk.findPeople('dan')).map((visit) => visit.visitId)).toEqual([dan.value.visitId]);
    await until(async () => ((await kiosk.db.outbox.get(1))?.nextAttemptAt ?? 0) <= now());
    await push(kiosk, now);
    const [onServer] = await serverPeople(site);
    expect(await kiosk.findPeople('dan')).toMatchObject([
      { visitId: dan.value.visitId, serverId: onServer?.checkinId },
    ]);
    await kiosk.close();
  });
});

describe('site configuration: cached 5 minutes, served however old while offline', () => {
  it('uses the cache when young, revalidates when old, follows a change, and falls back to the last copy offline', async () => {
    const site = await buildKioskSite(harness.server);
    const { kiosk, platform, network } = openTestKiosk(harness.server, site);
    const first = await kiosk.siteConfig();
    expect(first).toMatchObject({ fresh: true, config: { siteId: site.siteId, requiresApproval: false } });
    const sent = network.stats.sent;
    platform.clock.shift(4 * MINUTES);
    expect((await kiosk.siteConfig())?.config).toEqual(first?.config);
    expect(network.stats.sent).toBe(sent);

    const fields = [...(first?.config.fields ?? [])].map((field) =>
      field.name === 'company' ? { ...field, required: true } : field,
    );
    await putCheckinConfig(site, fields, true);
    platform.clock.shift(2 * MINUTES);
    const changed = await kiosk.siteConfig();
    expect(network.stats.sent).toBe(sent + 1);
    expect(changed?.config).toMatchObject({ requiresApproval: true });

    network.setOnline(false);
    platform.clock.shift(3 * 24 * 60 * MINUTES);
    expect(await kiosk.siteConfig()).toEqual({ config: changed?.config, fresh: false });
    // The form is checked against the cached copy: company is now required, and approval is predicted.
    const refused = await kiosk.checkIn({ person: { firstName: 'Eve', lastName: 'Nocompany' } });
    expect(refused).toMatchObject({ ok: false, code: 'VALIDATION_FAILED', errors: [{ path: 'person.company' }] });
    expect(await kiosk.db.outbox.count()).toBe(0);
    const pending = await kiosk.checkIn({ person: { firstName: 'Eve', lastName: 'Company', company: 'ACME' } });
    expect(pending).toMatchObject({ ok: true, value: { status: 'PENDING' } });
    await kiosk.close();
  });

  it('with nothing cached and no network, the form uses the server defaults (first and last name required)', async () => {
    const site = await buildKioskSite(harness.server);
    const { kiosk } = openTestKiosk(harness.server, site, { online: false });
    expect(await kiosk.siteConfig()).toBeUndefined();
    expect(await kiosk.checkIn({ person: { firstName: 'Solo' } })).toMatchObject({
      ok: false,
      errors: [{ path: 'person.lastName' }],
    });
    await kiosk.close();
  });
});

describe('status bar', () => {
  it('says Offline when the server does not answer even though the device has a link, and counts what is pending', async () => {
    const site = await buildKioskSite(harness.server);
    const { kiosk, network } = openTestKiosk(harness.server, site);
    const seen: SyncStatus[] = [];
    const stop = kiosk.status.subscribe((status) => seen.push(status));
    network.setFaults({ failRequests: 1, dropResponses: 0 });
    kiosk.start();
    await kiosk.checkIn({ person: { firstName: 'Fay', lastName: 'Waiting' } });
    await until(async () => seen.at(-1)?.online === false && seen.at(-1)?.text === '1 pending');
    expect(kiosk.engine.hasLink()).toBe(true);
    network.setFaults({ failRequests: 0, dropResponses: 0 });
    await until(async () => seen.at(-1)?.online === true && seen.at(-1)?.text === 'All synced');
    stop();
    await kiosk.close();
  });
});
