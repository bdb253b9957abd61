// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { Alert } from '../../shared/src/schemas/alerts';
import { putCheckinConfig } from '../support/checkinConfig';
import { staffClient } from '../support/staff';
import { kioskSite } from '../support/factories';
import { attentionOf, drain, kioskServerForFile, openTestKiosk, serverPeople } from './harness';

const harness = kioskServerForFile();

describe('the form version a kiosk check-in names', () => {
  it('a kiosk behind a form change is accepted with what it missed, not sent to Needs attention', async () => {
    const site = await kioskSite(harness.server);
    const bodies: unknown[] = [];
    const { kiosk } = openTestKiosk(harness.server, site, {
      fetch: (url, init) => {
        if (init?.method === 'POST' && url.endsWith('/checkins/people'))
          bodies.push(JSON.parse(typeof init.body === 'string' ? init.body : 'null'));
        return fetch(url, init);
      },
    });
    const shown = await kiosk.siteConfig();
    expect(shown?.config.version).toBe(1);
    // The manager makes Company required; the kiosk's copy is young, so the visitor gets the old form.
    await putCheckinConfig(site, [
      { name: 'firstName', label: 'First name', type: 'text', required: true },
      { name: 'lastName', label: 'Last name', type: 'text', required: true },
      { name: 'company', label: 'Company', type: 'text', required: true },
    ]);
    const ada = await kiosk.checkIn({ person: { firstName: 'Ada', lastName: 'Behind' } });
    expect(ada.ok).toBe(true);
    kiosk.start();
    await drain(kiosk);

    expect(bodies).toEqual([
      expect.objectContaining({ person: { firstName: 'Ada', lastName: 'Behind' }, formVersion: 1 }),
    ]);
    expect(await attentionOf(kiosk)).toEqual([]);
    expect(await kiosk.db.outbox.count()).toBe(0);
    const [checkin] = await serverPeople(site);
    expect(checkin).toMatchObject({ status: 'IN', incompleteFields: ['company'] });
    const { api } = await staffClient(harness.server, {
      accountId: site.accountId,
      role: 'reception',
      siteIds: [site.siteId],
    });
    const alerts = await api.get<{ data: Alert[] }>('/v1/alerts');
    expect(alerts.body.data.map((alert) => [alert.kind, alert.reason])).toEqual([
      ['form', 'Checked in with an older form: Company missing'],
    ]);
    await kiosk.close();
  });
});
