// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { alreadyOnSite } from '../../kiosk/src/data/earlierVisit';
import { rollCallView } from '../../kiosk/src/data/queries';
import type { PersonVisit } from '../../kiosk/src/data/types';
import { actionsOf } from '../../kiosk/src/data/visits';
import type { Kiosk } from '../../kiosk/src/kiosk';
import { requireBadgeNumber } from '../support/checkinConfig';
import {
  type KioskSite,
  buildKioskSite,
  drain,
  forgetFormVersions,
  kioskServerForFile,
  openTestKiosk,
  serverPeople,
} from './harness';

const harness = kioskServerForFile();

async function checkIn(kiosk: Kiosk, firstName: string, lastName: string): Promise<PersonVisit> {
  const result = await kiosk.checkIn({ person: { firstName, lastName } });
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

const states = async (kiosk: Kiosk, visit: PersonVisit) =>
  (await actionsOf(kiosk.db, visit.visitId)).map((action) => action.state);

describe('"already checked in" on the check-in form', () => {
  it('ignores a visit whose create the server refused, and still counts one synced or merely queued', async () => {
    const site = await buildKioskSite(harness.server);
    const { kiosk, network } = openTestKiosk(harness.server, site);
    kiosk.start();
    await kiosk.siteConfig();

    // Synced before the site changed: the server has this visit.
    const ada = await checkIn(kiosk, 'Ada', 'Lovelace');
    await drain(kiosk);

    // The cached copy (young, so used as it is, and naming no version) has no badge field: the kiosk accepts
    // Rosa, the server checks her against its current form and refuses her.
    await forgetFormVersions(kiosk);
    await requireBadgeNumber(site);
    const rosa = await checkIn(kiosk, 'Rosa', 'Parks');
    await drain(kiosk);
    expect(await states(kiosk, rosa)).toEqual(['ATTENTION']);
    expect((await kiosk.db.people.get(rosa.visitId))?.serverId).toBeUndefined();
    expect((await serverPeople(site)).map((checkin) => checkin.person.lastName)).toEqual(['Lovelace']);

    // Needs attention says to check her in again: the form must not tell her she already is.
    expect(await alreadyOnSite(kiosk.db, site.siteId, { firstName: 'Rosa', lastName: 'Parks' })).toBeUndefined();
    // The server has no visit of hers: the Roll call lists her apart (she may be in the building) and does
    // not count her, and Find your name does not offer to check her out.
    const view = await rollCallView(kiosk.db, site.siteId);
    expect(view.people.map((visit) => visit.visitId)).toEqual([ada.visitId]);
    expect(view.refused.map((visit) => visit.visitId)).toEqual([rosa.visitId]);
    expect(await kiosk.findPeople('Rosa Parks')).toEqual([]);
    expect((await alreadyOnSite(kiosk.db, site.siteId, { firstName: 'ada', lastName: 'LOVELACE' }))?.visitId).toBe(
      ada.visitId,
    );

    // Offline, a check-in waits in the outbox: a real check-in on its way, so the question is still asked.
    network.setOnline(false);
    const grace = await checkIn(kiosk, 'Grace', 'Hopper');
    expect(await states(kiosk, grace)).toEqual(['QUEUED']);
    expect((await alreadyOnSite(kiosk.db, site.siteId, { firstName: 'Grace', lastName: 'Hopper' }))?.visitId).toBe(
      grace.visitId,
    );

    // Rosa checked in again (still queued): that visit is the one she is asked about, not the refused one.
    const again = await checkIn(kiosk, 'Rosa', 'Parks');
    expect((await alreadyOnSite(kiosk.db, site.siteId, { firstName: 'Rosa', lastName: 'Parks' }))?.visitId).toBe(
      again.visitId,
    );
    await kiosk.close();
  });
});
