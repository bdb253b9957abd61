// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { CreatedKiosk } from '../../shared/src/schemas/kiosks';
import { KioskDatabase } from '../../kiosk/src/data/database';
import { checkIn } from '../../kiosk/src/data/personCommands';
import { readSettings } from '../../kiosk/src/data/settings';
import { PAIRING_CODE_INVALID_WORDS, pairWithCode } from '../../kiosk/src/pairing';
import { buildSite, buildToken, buildWorld } from '../support/factories';
import { apiClient } from '../support/http';
import { kioskServerForFile } from './harness';

// The setup screen's Pair: a code from the console exchanged for the kiosk's settings, against the real server.

const harness = kioskServerForFile();
const databases: KioskDatabase[] = [];
afterEach(() => {
  for (const db of databases.splice(0)) db.close();
});

const deps = { fetch: (url: string, init: RequestInit) => fetch(url, init), now: () => Date.now() };

async function account() {
  const { server } = harness;
  const world = await buildWorld(server);
  const lobby = await buildSite(server, world.accountId, 'Lobby');
  const yard = await buildSite(server, world.accountId, 'Yard');
  const { token } = await buildToken(server, { accountId: world.accountId, allSites: true, scopes: ['kiosks:manage'] });
  const manager = apiClient(server.baseUrl, token);
  const code = async (siteId: number, mode: 'visitor' | 'gate' = 'visitor') => {
    const created = await manager.post<CreatedKiosk>('/v1/kiosks', { siteId, mode, name: `Kiosk ${siteId}` });
    expect(created.status, created.text).toBe(201);
    return created.body.pairingCode;
  };
  return { lobby: lobby.siteId, yard: yard.siteId, code };
}

function device(): KioskDatabase {
  const db = new KioskDatabase(`pairing-${randomUUID()}`, { indexedDB, IDBKeyRange });
  databases.push(db);
  return db;
}

describe('pairing with a code', () => {
  it('saves the server, the new token, the site, the mode and the name; the code works once', async () => {
    const { server } = harness;
    const { yard, code } = await account();
    const db = device();
    const pairingCode = await code(yard, 'gate');
    // Typed as a person may: lower case, with a dash; the address as the start banner prints it.
    const typed = `${pairingCode.slice(0, 4).toLowerCase()}-${pairingCode.slice(4)}`;
    const result = await pairWithCode(db, { serverUrl: `${server.baseUrl}/v1`, code: typed }, deps);
    expect(result).toMatchObject({
      ok: true,
      settings: { serverUrl: `${server.baseUrl}/v1`, siteId: yard, mode: 'gate', kioskName: `Kiosk ${yard}` },
    });
    const saved = await readSettings(db);
    expect(saved?.token).toMatch(/^ck_/);
    // The token works: the kiosk sees its site.
    expect((await apiClient(server.baseUrl, saved?.token).get(`/v1/sites/${yard}`)).status).toBe(200);

    expect(await pairWithCode(device(), { serverUrl: server.baseUrl, code: pairingCode }, deps)).toEqual({
      ok: false,
      message: PAIRING_CODE_INVALID_WORDS,
    });
  });

  it('with actions pending, pairs again for the same site but not for another, and says why', async () => {
    const { server } = harness;
    const { lobby, yard, code } = await account();
    const db = device();
    expect((await pairWithCode(db, { serverUrl: server.baseUrl, code: await code(lobby) }, deps)).ok).toBe(true);
    await checkIn({ db, now: () => Date.now(), randomUUID }, lobby, {
      person: { firstName: 'Pat', lastName: 'Pending' },
    });
    const before = await readSettings(db);

    const elsewhere = await pairWithCode(db, { serverUrl: server.baseUrl, code: await code(yard) }, deps);
    expect(elsewhere).toEqual({
      ok: false,
      message:
        "This code pairs the kiosk with another site or server, but 1 action is not synced yet. Ask a manager for a new code for this kiosk's site.",
    });
    expect(await readSettings(db)).toEqual(before);

    const again = await pairWithCode(db, { serverUrl: server.baseUrl, code: await code(lobby) }, deps);
    expect(again.ok).toBe(true);
    expect((await readSettings(db))?.token).not.toBe(before?.token);
    expect(await db.outbox.count()).toBe(1);
  });

  it('says what is missing or wrong in words, before and after asking the server', async () => {
    const db = device();
    expect(await pairWithCode(db, { serverUrl: 'gatehouse.example', code: 'ABCD2345' }, deps)).toEqual({
      ok: false,
      message: 'Please give the server address, as https://gatehouse.example.com.',
    });
    expect(await pairWithCode(db, { serverUrl: harness.server.baseUrl, code: ' - ' }, deps)).toEqual({
      ok: false,
      message: 'Please give the pairing code shown in the console.',
    });
    expect(await pairWithCode(db, { serverUrl: 'http://127.0.0.1:9', code: 'ABCD2345' }, deps)).toEqual({
      ok: false,
      message: 'Cannot reach http://127.0.0.1:9. Check the address and the network.',
    });
    expect(await readSettings(db)).toBeUndefined();
  });
});
