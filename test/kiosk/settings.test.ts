// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KioskDatabase } from '../../kiosk/src/data/database';
import { checkIn } from '../../kiosk/src/data/personCommands';
import { readSettings, saveSettings } from '../../kiosk/src/data/settings';

const paired = { serverUrl: 'https://gatehouse.example', token: 'ck_kiosk', siteId: 1, mode: 'visitor' as const };

describe('pairing: never strand unsynced actions', () => {
  it('refuses to unpair or change site while actions are pending; mode and token may change', async () => {
    const db = new KioskDatabase(`settings-${randomUUID()}`);
    expect(await saveSettings(db, paired)).toEqual({ ok: true });
    await checkIn({ db, now: () => Date.now(), randomUUID }, 1, { person: { firstName: 'Pat', lastName: 'Pending' } });

    expect(await saveSettings(db, null)).toMatchObject({ ok: false, code: 'ACTIONS_PENDING', pending: 1 });
    expect(await saveSettings(db, { ...paired, siteId: 2 })).toMatchObject({ ok: false, code: 'ACTIONS_PENDING' });
    expect(await saveSettings(db, { ...paired, serverUrl: 'https://elsewhere.example' })).toMatchObject({ ok: false });
    expect(await saveSettings(db, { ...paired, mode: 'gate', token: 'ck_rotated' })).toEqual({ ok: true });
    expect(await readSettings(db)).toEqual({ ...paired, mode: 'gate', token: 'ck_rotated' });

    await db.outbox.clear();
    expect(await saveSettings(db, { ...paired, siteId: 2 })).toEqual({ ok: true });
    expect(await saveSettings(db, null)).toEqual({ ok: true });
    expect(await readSettings(db)).toBeUndefined();
    db.close();
  });
});
