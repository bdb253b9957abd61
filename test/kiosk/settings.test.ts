// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KioskDatabase } from '../../kiosk/src/data/database';
import { checkIn } from '../../kiosk/src/data/personCommands';
import { rollCall } from '../../kiosk/src/data/queries';
import { readSavedPin, readSettings, savePin, saveSettings } from '../../kiosk/src/data/settings';
import { openKiosk } from '../../kiosk/src/kiosk';
import { testNetwork, testPlatform } from '../../kiosk/src/platform/testPlatform';

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
    // The same server written as the start banner prints its API: not a move.
    expect(
      await saveSettings(db, {
        ...paired,
        mode: 'gate',
        token: 'ck_rotated',
        serverUrl: 'https://gatehouse.example/v1/',
      }),
    ).toEqual({ ok: true });
    expect(await db.outbox.count()).toBe(1);

    await db.outbox.clear();
    expect(await saveSettings(db, { ...paired, siteId: 2 })).toEqual({ ok: true });
    expect(await saveSettings(db, null)).toEqual({ ok: true });
    expect(await readSettings(db)).toBeUndefined();
    db.close();
  });
});

describe('the Settings PIN given in an address', () => {
  it('is kept through re-pairing, replaced by the next one, and forgotten when the kiosk is unpaired', async () => {
    const db = new KioskDatabase(`settings-${randomUUID()}`);
    expect(await readSavedPin(db)).toBeUndefined();
    await savePin(db, '2468');
    expect(await saveSettings(db, paired)).toEqual({ ok: true });
    expect(await saveSettings(db, { ...paired, siteId: 2 })).toEqual({ ok: true });
    expect(await readSavedPin(db)).toBe('2468');
    await savePin(db, '013579');
    expect(await readSavedPin(db)).toBe('013579');
    await expect(savePin(db, '12')).rejects.toThrow();
    expect(await saveSettings(db, null)).toEqual({ ok: true });
    expect(await readSavedPin(db)).toBeUndefined();
    db.close();
  });
});

describe('pairing with another server or site starts from an empty local view', () => {
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  const checkin = (checkinId: number, siteId: number, firstName: string) => {
    const at = new Date().toISOString();
    return {
      checkinId,
      siteId,
      status: 'IN',
      person: { firstName, lastName: 'P', email: null, phone: null, company: null },
      hostName: null,
      purpose: null,
      customFields: {},
      labelIds: [],
      entry: { source: 'KIOSK', at },
      exit: null,
      denyReason: null,
      breaks: [],
      createdAt: at,
      updatedAt: at,
    };
  };
  /** A server whose list is `list` and whose creates answer check-in 5 on `siteId`. */
  const stubServer = (list: unknown[], siteId: number) => async (url: string, init: RequestInit) => {
    if (url.includes('/people/changes')) return json(200, { data: list, nextCursor: 'c', hasMore: false });
    if (init.method === 'GET') return json(200, { data: list, nextCursor: null });
    const body = JSON.parse(String(init.body)) as { person: { firstName: string } };
    const created = checkin(5, siteId, body.person.firstName);
    list.push(created);
    return json(201, created);
  };

  /** Pairs with server A, checks Alice in there (check-in 5) and syncs; then re-pairs with `next`. */
  async function movedFromA(next: typeof paired) {
    const databaseName = `repair-${randomUUID()}`;
    const onA = { ...paired, serverUrl: 'http://a.invalid' };
    const device = new KioskDatabase(databaseName);
    expect(await saveSettings(device, onA)).toEqual({ ok: true });
    const a = openKiosk({
      platform: testPlatform({ network: testNetwork({ fetch: stubServer([], 1) }) }),
      databaseName,
      ...onA,
    });
    await a.checkIn({ person: { firstName: 'Alice', lastName: 'P' } });
    a.start();
    await a.engine.syncNow();
    expect(await a.db.people.count()).toBe(1);
    await a.close();
    expect(await saveSettings(device, next)).toEqual({ ok: true });
    device.close();
    return databaseName;
  }

  it("another server with the same site and check-in ids: its own visitor shows, not the old server's", async () => {
    const onB = { ...paired, serverUrl: 'http://b.invalid' };
    const databaseName = await movedFromA(onB);
    const b = openKiosk({
      platform: testPlatform({ network: testNetwork({ fetch: stubServer([checkin(5, 1, 'Bob')], 1) }) }),
      databaseName,
      ...onB,
    });
    b.start();
    await b.engine.syncNow();
    expect((await rollCall(b.db, 1)).map((visit) => `${visit.person.firstName}#${visit.serverId}`)).toEqual(['Bob#5']);
    await b.close();
  });

  it('another server and site whose check-in ids collide with the old ones: the pull fills the roll call', async () => {
    const onB = { ...paired, serverUrl: 'http://b.invalid', siteId: 2 };
    const databaseName = await movedFromA(onB);
    const errors: unknown[] = [];
    const b = openKiosk({
      platform: testPlatform({ network: testNetwork({ fetch: stubServer([checkin(5, 2, 'Bob')], 2) }) }),
      databaseName,
      ...onB,
      sync: { onError: (error) => errors.push(error) },
    });
    b.start();
    await b.engine.syncNow();
    expect(errors).toEqual([]);
    expect((await rollCall(b.db, 2)).map((visit) => visit.person.firstName)).toEqual(['Bob']);
    await b.close();
  });

  it('a pull or a form revalidation of the old pairing that ends after the move writes nothing', async () => {
    const databaseName = `repair-${randomUUID()}`;
    const onA = { ...paired, serverUrl: 'http://a.invalid' };
    const device = new KioskDatabase(databaseName);
    expect(await saveSettings(device, onA)).toEqual({ ok: true });
    const config = { siteId: 1, requiresApproval: false, fields: [] };
    const fetchA = async (url: string, init: RequestInit) =>
      url.endsWith('/config') ? json(200, config) : stubServer([checkin(5, 1, 'Alice')], 1)(url, init);
    const a = openKiosk({ platform: testPlatform({ network: testNetwork({ fetch: fetchA }) }), databaseName, ...onA });
    // The move lands while A's old sync loop and form are still about: their answers must not be kept.
    expect(await saveSettings(device, { ...paired, serverUrl: 'http://b.invalid' })).toEqual({ ok: true });
    a.start();
    await a.engine.syncNow();
    expect(await a.siteConfig()).toMatchObject({ fresh: true });
    expect(await a.db.people.count()).toBe(0);
    expect(await a.db.siteConfigs.count()).toBe(0);
    await a.close();
    device.close();
  });
});
