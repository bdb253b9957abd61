// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { readPeoplePulledAt, saveSettings } from '../../kiosk/src/data/settings';
import type { Kiosk } from '../../kiosk/src/kiosk';
import { requireBadgeNumber } from '../support/checkinConfig';
import { attentionOf, buildKioskSite, drain, forgetFormVersions, kioskServerForFile, openTestKiosk } from './harness';

const harness = kioskServerForFile();

const badgeError = { path: 'customFields.badgeNumber', message: 'Badge number is required' };

describe('Needs attention keeps what the server did not accept', () => {
  it('a check-in refused for a field the cached configuration lacks keeps the field errors, through a reopen, named by label once known', async () => {
    const site = await buildKioskSite(harness.server);
    const { kiosk, databaseName } = openTestKiosk(harness.server, site);
    kiosk.start();
    await kiosk.siteConfig();
    await forgetFormVersions(kiosk);
    await requireBadgeNumber(site);
    // The cached copy (young, so used as it is, and naming no version) has no badge field: the kiosk accepts
    // the check-in, the server checks it against its current form.
    const rosa = await kiosk.checkIn({ person: { firstName: 'Rosa', lastName: 'Parks' } });
    expect(rosa.ok).toBe(true);
    await drain(kiosk);

    const [item] = await attentionOf(kiosk);
    expect(item?.action.lastError).toMatchObject({ status: 422, code: 'VALIDATION_FAILED', errors: [badgeError] });
    expect(item?.who).toBe('Rosa Parks');
    // The kiosk has no label for a field it has not heard of: the server's path names it.
    expect(item?.fieldErrors).toEqual([{ field: 'customFields.badgeNumber', message: 'Badge number is required' }]);
    await kiosk.close();

    // Stored with the action: a new instance on the same database (a reload) still has them.
    const reopened = openTestKiosk(harness.server, site, { databaseName });
    reopened.kiosk.start();
    const [stored] = await attentionOf(reopened.kiosk);
    expect(stored?.action.lastError?.errors).toEqual([badgeError]);
    // Once the configuration is fetched again (the cache is older than 5 minutes), the field has its label.
    reopened.platform.clock.shift(6 * 60_000);
    await reopened.kiosk.siteConfig();
    expect((await attentionOf(reopened.kiosk))[0]?.fieldErrors).toEqual([
      { field: 'Badge number', message: 'Badge number is required' },
    ]);
    await reopened.kiosk.close();
  });

  it('an action refused before field errors were kept still shows, with none listed', async () => {
    const site = await buildKioskSite(harness.server);
    const { kiosk } = openTestKiosk(harness.server, site, { online: false });
    const ada = await kiosk.checkIn({ person: { firstName: 'Ada', lastName: 'Lovelace' } });
    if (!ada.ok) throw new Error(ada.message);
    // As an older version stored a refusal: an error with no `errors` field at all.
    const [row] = await kiosk.db.outbox.toArray();
    await kiosk.db.outbox.update(row?.seq ?? -1, {
      state: 'ATTENTION',
      lastError: {
        status: 422,
        code: 'VALIDATION_FAILED',
        message: 'The check-in does not meet the site configuration.',
      },
    });
    const [item] = await attentionOf(kiosk);
    expect(item).toMatchObject({ description: 'Check-in of Ada Lovelace', who: 'Ada Lovelace', fieldErrors: [] });
    await kiosk.close();
  });
});

describe('the Roll call knows how old it is', () => {
  it('records when the people were last pulled, keeps it through a reopen, not for a failed pull, and forgets it on a move', async () => {
    const site = await buildKioskSite(harness.server);
    const { kiosk, platform, network, databaseName } = openTestKiosk(harness.server, site);
    expect(await readPeoplePulledAt(kiosk.db, site.siteId)).toBeUndefined();
    kiosk.start();

    const before = platform.clock.now();
    await kiosk.engine.syncNow();
    const pulledAt = await readPeoplePulledAt(kiosk.db, site.siteId);
    expect(pulledAt).toBeGreaterThanOrEqual(before);
    expect(pulledAt).toBeLessThanOrEqual(platform.clock.now());

    // The server away for an hour: the time stays that of the last pull that worked.
    network.setOnline(false);
    platform.clock.shift(60 * 60_000);
    await kiosk.engine.syncNow();
    expect(await readPeoplePulledAt(kiosk.db, site.siteId)).toBe(pulledAt);
    await kiosk.close();

    const reopened = openTestKiosk(harness.server, site, { databaseName, online: false });
    expect(await readPeoplePulledAt(reopened.kiosk.db, site.siteId)).toBe(pulledAt);
    // Another site of this kiosk's database has never been pulled.
    expect(await readPeoplePulledAt(reopened.kiosk.db, site.siteId + 1)).toBeUndefined();

    // Paired, then moved to another site: the new pairing has not been synced yet.
    const settings = {
      serverUrl: harness.server.baseUrl,
      token: site.kioskToken,
      siteId: site.siteId,
      mode: 'visitor' as const,
    };
    expect(await saveSettings(reopened.kiosk.db, settings)).toEqual({ ok: true });
    reopened.network.setOnline(true);
    reopened.kiosk.start();
    await reopened.kiosk.engine.syncNow();
    expect(await readPeoplePulledAt(reopened.kiosk.db, site.siteId)).toBeGreaterThan(0);
    expect(await saveSettings(reopened.kiosk.db, { ...settings, siteId: site.siteId + 1 })).toEqual({ ok: true });
    expect(await readPeoplePulledAt(reopened.kiosk.db, site.siteId)).toBeUndefined();
    await reopened.kiosk.close();
  });
});
