// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { ConfigField } from '../../shared/src/schemas/sites';
import { putCheckinConfig } from '../support/checkinConfig';
import {
  type KioskSite,
  attentionOf,
  buildKioskSite,
  drain,
  forgetFormVersions,
  kioskServerForFile,
  openTestKiosk,
  serverPeople,
} from './harness';

const harness = kioskServerForFile();

const fields = (companyRequired: boolean): ConfigField[] => [
  { name: 'firstName', label: 'First name', type: 'text', required: true },
  { name: 'lastName', label: 'Last name', type: 'text', required: true },
  { name: 'email', label: 'Email', type: 'email', required: false },
  { name: 'company', label: 'Company', type: 'text', required: companyRequired },
];

const requireCompany = (site: KioskSite, required: boolean) => putCheckinConfig(site, fields(required));

describe('a refused action goes to Needs attention and holds back only its own visit', () => {
  it('a 422 create (the site config changed while offline) blocks its break; other visitors sync; Discard takes both and says so', async () => {
    const site = await buildKioskSite(harness.server);
    const { kiosk, network } = openTestKiosk(harness.server, site, { online: true });
    expect((await kiosk.siteConfig())?.config.fields.find((field) => field.name === 'company')?.required).toBe(false);
    // A copy naming no version: the server checks its current form (a versioned one is accepted instead).
    await forgetFormVersions(kiosk);
    network.setOnline(false);
    kiosk.start();

    const ada = await kiosk.checkIn({ person: { firstName: 'Ada', lastName: 'Lovelace' } });
    if (!ada.ok) throw new Error(ada.message);
    expect((await kiosk.startBreak(ada.value.visitId)).ok).toBe(true);
    const bob = await kiosk.checkIn({ person: { firstName: 'Bob', lastName: 'Builder', company: 'Yes' } });
    if (!bob.ok) throw new Error(bob.message);
    await kiosk.startBreak(bob.value.visitId);
    await kiosk.checkOut(bob.value.visitId);

    await requireCompany(site, true);
    network.setOnline(true);
    await drain(kiosk);

    const onServer = await serverPeople(site);
    expect(onServer.map((checkin) => [checkin.person.firstName, checkin.status, checkin.breaks.length])).toEqual([
      ['Bob', 'OUT', 1],
    ]);
    const items = await attentionOf(kiosk);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      description: 'Check-in of Ada Lovelace',
      waiting: 1,
      action: { kind: 'PERSON_CHECKIN', state: 'ATTENTION', lastError: { status: 422, code: 'VALIDATION_FAILED' } },
    });
    expect(await kiosk.db.outbox.count()).toBe(2); // refused, and the break waiting behind it: nothing dropped

    const report = await kiosk.discard(items[0]?.action.seq ?? -1);
    expect(report).toMatchObject({
      visitRemoved: true,
      message: 'Discarded Check-in of Ada Lovelace and 1 later action that depended on it.',
    });
    expect(report?.discarded.map((action) => action.kind)).toEqual(['PERSON_CHECKIN', 'PERSON_BREAK_START']);
    expect(await kiosk.db.outbox.count()).toBe(0);
    expect((await kiosk.findPeople('ada')).length).toBe(0);
    await kiosk.close();
  });

  it('Retry after the cause is fixed sends the create under a new key (the old one would replay the 422), then its break', async () => {
    const site = await buildKioskSite(harness.server);
    const { kiosk, network } = openTestKiosk(harness.server, site, { online: true });
    await kiosk.siteConfig();
    await forgetFormVersions(kiosk);
    await requireCompany(site, true);
    network.setOnline(false);
    kiosk.start();
    const grace = await kiosk.checkIn({ person: { firstName: 'Grace', lastName: 'Hopper' } });
    if (!grace.ok) throw new Error(grace.message);
    await kiosk.startBreak(grace.value.visitId);
    network.setOnline(true);
    await drain(kiosk);
    const [refused] = await attentionOf(kiosk);
    expect(refused?.action.lastError?.code).toBe('VALIDATION_FAILED');
    const oldKey = refused?.action.key;

    await requireCompany(site, false);
    expect(await kiosk.retry(refused?.action.seq ?? -1)).toBe(true);
    const retried = await kiosk.db.outbox.get(refused?.action.seq ?? -1);
    expect(retried?.key).toBeDefined();
    expect(retried?.key).not.toBe(oldKey);
    await drain(kiosk);
    expect(await kiosk.db.outbox.count()).toBe(0);
    const [checkin] = await serverPeople(site);
    expect(checkin).toMatchObject({
      status: 'ON_BREAK',
      person: { firstName: 'Grace' },
      entry: { at: grace.value.entryAt },
    });
    await kiosk.close();
  });

  it('a 409 shows the server state the conflict carried; discarding the action keeps the visit as the server has it', async () => {
    const site = await buildKioskSite(harness.server);
    const { kiosk } = openTestKiosk(harness.server, site, { online: true });
    kiosk.start();
    const alan = await kiosk.checkIn({ person: { firstName: 'Alan', lastName: 'Turing' } });
    if (!alan.ok) throw new Error(alan.message);
    await drain(kiosk);
    const [created] = await serverPeople(site);
    // Checked out at the desk by an integrator while the kiosk still shows Alan on site.
    await site.api.patch(`/v1/sites/${site.siteId}/checkins/people/${created?.checkinId}`, {});

    expect((await kiosk.startBreak(alan.value.visitId)).ok).toBe(true);
    await drain(kiosk);
    const [refused] = await attentionOf(kiosk);
    expect(refused).toMatchObject({
      description: 'Break start of Alan Turing',
      action: { lastError: { status: 409, code: 'CHECKIN_CLOSED' } },
    });
    // The projection replays the refused break over the server's OUT: the machine rejects it, so OUT shows.
    expect((await kiosk.db.people.get(alan.value.visitId))?.status).toBe('OUT');
    const report = await kiosk.discard(refused?.action.seq ?? -1);
    expect(report).toMatchObject({ visitRemoved: false, message: 'Discarded Break start of Alan Turing.' });
    expect((await kiosk.db.people.get(alan.value.visitId))?.status).toBe('OUT');
    await kiosk.close();
  });

  it('an action older than the 7-day window is refused (OCCURRED_AT_OUT_OF_RANGE) and waits for a person, not retried forever', async () => {
    const site = await buildKioskSite(harness.server);
    const { kiosk, network } = openTestKiosk(harness.server, site, {
      online: false,
      clockOffsetMs: -8 * 24 * 3_600_000,
    });
    kiosk.start();
    await kiosk.checkIn({ person: { firstName: 'Old', lastName: 'Visit' } });
    network.setOnline(true);
    await drain(kiosk);
    const [refused] = await attentionOf(kiosk);
    expect(refused?.action).toMatchObject({
      attempts: 0,
      lastError: { status: 422, code: 'OCCURRED_AT_OUT_OF_RANGE' },
    });
    expect(await serverPeople(site)).toEqual([]);
    await kiosk.close();
  });
});
